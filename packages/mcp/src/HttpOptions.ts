import { z } from "zod"

/** The environment variable the HTTP server's bearer token is read from when no `token` is given. */
export const tokenVariable = "SEXTANT_MCP_TOKEN"

/** How long an HTTP session may stay idle before it ends and its browser closes, by default (15 minutes). */
export const defaultIdleTimeoutMs = 15 * 60_000

/**
 * How the Streamable HTTP server listens and whom it answers. It listens on 127.0.0.1 only and answers a
 * request only when its `Host` is this server (`127.0.0.1`, `localhost` or `[::1]` with its port, or one
 * of `allowedHosts`), its `Origin`, when it has one, is this server's (or one of `allowedOriginHeaders`),
 * and it carries `Authorization: Bearer <token>`. That stops a web page from driving the browser through
 * DNS rebinding or a cross-site request, and any other local program that does not know the token.
 */
export const HttpOptions = z.object({
  /** The port on 127.0.0.1 (0: any free port). */
  port: z.number().int().min(0).max(65_535).default(0),
  /**
   * More `Host` header values to accept, as `host:port` (e.g. `mcp.internal:8080`, for a reverse proxy);
   * `127.0.0.1`, `localhost` and `[::1]` with the server's port are always accepted.
   */
  allowedHosts: z.array(z.string().min(1)).default([]),
  /**
   * More `Origin` header values to accept (e.g. `http://localhost:6274` for a browser-based inspector);
   * the server's own origins are always accepted, and a request without `Origin` (not from a browser) is.
   */
  allowedOriginHeaders: z
    .array(
      z
        .string()
        .refine(
          (value) => URL.canParse(value) && new URL(value).origin === value.replace(/\/$/, ""),
          "use an origin such as http://localhost:6274",
        )
        .transform((value) => new URL(value).origin),
    )
    .default([]),
  /**
   * The bearer token every request must carry. Default: `SEXTANT_MCP_TOKEN`, else 32 random bytes made
   * at start (base64url), which `serveHttp` returns and `sextant mcp --http` prints once on stderr.
   */
  token: z.string().min(16, "use a token of at least 16 characters").optional(),
  /** An MCP session that receives no request for this long is ended and its browser closed. Default 15 minutes. */
  idleTimeoutMs: z.number().int().positive().default(defaultIdleTimeoutMs),
})
export type HttpOptions = z.output<typeof HttpOptions>
export type HttpOptionsInput = z.input<typeof HttpOptions>
