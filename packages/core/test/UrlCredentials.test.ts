import { describe, expect, it } from "vitest"
import {
  BodyTooLarge,
  HttpNetwork,
  HttpStatus,
  hideUrlCredentials,
  InvalidUrl,
  OriginNotAllowed,
  RateLimited,
  respellUrlCredentials,
  Timeout,
  UnsupportedContent,
  urlCredentials,
} from "../src/index.ts"

describe("hideUrlCredentials", () => {
  it("hides the password of the user part and of a credential query parameter, and keeps the rest", () => {
    expect(hideUrlCredentials("postgres://sextant:hunter2@db:5432/runs")).toBe(
      "postgres://sextant:***@db:5432/runs",
    )
    expect(
      hideUrlCredentials("postgres://sextant@db/runs?sslmode=require&password=hunter2&application_name=a"),
    ).toBe("postgres://sextant@db/runs?sslmode=require&password=***&application_name=a")
    expect(hideUrlCredentials("redis://cache:6379?sslpassword=x%20y&token=t&api_key=k")).toBe(
      "redis://cache:6379?sslpassword=***&token=***&api_key=***",
    )
  })

  it("hides a password with an @ in it whole", () => {
    expect(hideUrlCredentials("postgres://u:p@ss@host/db")).toBe("postgres://u:***@host/db")
  })

  it("hides by spelling what no URL parser reads (a port out of range)", () => {
    expect(hideUrlCredentials("redis://:hunter2@cache:99999")).toBe("redis://:***@cache:99999")
    expect(hideUrlCredentials("postgres://u@db:70000/x?password=hunter2")).toBe(
      "postgres://u@db:70000/x?password=***",
    )
  })

  it("leaves a URL or a path without credentials as it is", () => {
    for (const text of [
      "postgres://sextant@db/runs",
      "redis://127.0.0.1:6379/2",
      "/var/lib/store.db",
      "postgres:///sextant",
    ])
      expect(hideUrlCredentials(text)).toBe(text)
  })

  it("hides a page's tokens, keys and a signed URL's signature and credential, by the words of their names", () => {
    expect(
      hideUrlCredentials(
        "https://cdn.example/a.pdf?X-Amz-Credential=AKIA%2F20260101&X-Amz-Signature=9f3c&X-Goog-Signature=ab&sig=azure&Signature=cf&key=AIza&apiKey=k&access_token=t&page=2",
      ),
    ).toBe(
      "https://cdn.example/a.pdf?X-Amz-Credential=***&X-Amz-Signature=***&X-Goog-Signature=***&sig=***&Signature=***&key=***&apiKey=***&access_token=***&page=2",
    )
  })

  it("hides the tokens of a fragment: an OAuth callback's, a hash route's, and in a text no parser reads", () => {
    expect(hideUrlCredentials("https://app.example/cb#access_token=t1&state=s")).toBe(
      "https://app.example/cb#access_token=***&state=s",
    )
    expect(hideUrlCredentials("https://app.example/#/callback?id_token=t2&page=2")).toBe(
      "https://app.example/#/callback?id_token=***&page=2",
    )
    expect(hideUrlCredentials("redirected to https://app.example:99999/cb#access_token=t3 (bad port)")).toBe(
      "redirected to https://app.example:99999/cb#access_token=*** (bad port)",
    )
    for (const url of ["https://app.example/docs#section-2", "https://app.example/#/orders?page=2"])
      expect(hideUrlCredentials(url)).toBe(url)
  })

  it("hides a session id a servlet wrote into the path, and leaves other path parameters", () => {
    expect(hideUrlCredentials("https://shop.example/cart;jsessionid=A1B2C3D4E5?item=3")).toBe(
      "https://shop.example/cart;jsessionid=***?item=3",
    )
    const plain = "https://maps.example/area;zoom=3/tiles"
    expect(hideUrlCredentials(plain)).toBe(plain)
  })

  it("hides session ids and auth keys, whatever their spelling", () => {
    expect(
      hideUrlCredentials("http://shop.example/cart?PHPSESSID=a1&jsessionid=b2&session_id=c3&authKey=d4&x=1"),
    ).toBe("http://shop.example/cart?PHPSESSID=***&jsessionid=***&session_id=***&authKey=***&x=1")
  })

  it("leaves parameters whose names only contain such a word as they are", () => {
    const url = "https://shop.example/search?author=ann&keyword=lamp&design=oak&passenger=2&monkey=1"
    expect(hideUrlCredentials(url)).toBe(url)
  })

  it("hides the URLs a message quotes, without encoding the message's spaces", () => {
    expect(
      hideUrlCredentials(
        "Request cannot be constructed from a URL that includes credentials: http://ann:pw@127.0.0.1:4000/x?token=t&page=2",
      ),
    ).toBe(
      "Request cannot be constructed from a URL that includes credentials: http://ann:***@127.0.0.1:4000/x?token=***&page=2",
    )
  })
})

describe("the HTTP reasons' messages", () => {
  it("never repeat a credential of the URL they name", () => {
    const url = "http://ann:pw-1@127.0.0.1:4000/report?token=tok-2&page=2"
    const messages = [
      new HttpStatus({ url, status: 404 }).message,
      new RateLimited({ url, retryAfterMs: 1000 }).message,
      new Timeout({ operation: url, url, timeoutMs: 100 }).message,
      new InvalidUrl({ url, detail: `it redirected to ${url}` }).message,
      new HttpNetwork({ url, detail: `fetch failed: ${url}` }).message,
      new UnsupportedContent({ url, contentType: "application/pdf", expected: "HTML" }).message,
      new BodyTooLarge({ url, limitBytes: 10 }).message,
      new OriginNotAllowed({ url, from: url, detail: "elsewhere" }).message,
    ]
    for (const message of messages) {
      expect(message).not.toContain("pw-1")
      expect(message).not.toContain("tok-2")
      expect(message).toContain("ann:***@127.0.0.1:4000/report?token=***&page=2")
    }
  })
})

describe("urlCredentials", () => {
  it("finds the password, the query's credentials and the fragment's, decoded", () => {
    expect(
      urlCredentials("https://alice:p%40ss@shop.example/?token=t1&page=2#id_token=t%2B2&state=s"),
    ).toEqual([
      { part: "password", value: "p@ss" },
      { part: "token", value: "t1" },
      { part: "id_token", value: "t+2" },
    ])
    expect(urlCredentials("https://app.example/#/callback?access_token=t3")).toEqual([
      { part: "access_token", value: "t3" },
    ])
    expect(urlCredentials("https://app.example/docs#section=2")).toEqual([])
    expect(urlCredentials("https://shop.example/cart;jsessionid=A1B2C3D4E5;zoom=3?item=3")).toEqual([
      { part: "jsessionid", value: "A1B2C3D4E5" },
    ])
  })

  it("respells only the credentials' parameters as a form encodes them", () => {
    expect(respellUrlCredentials("https://app.example/cb?x=a%20b#access_token=a%2Db&state=1")).toBe(
      "https://app.example/cb?x=a%20b#access_token=a-b&state=1",
    )
  })
})
