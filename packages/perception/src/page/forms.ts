import { plainText } from "./names.ts"

/* Forms: what a form is called and which of its buttons submits it. */

export const formName = (element: Element): string => {
  const heading = element.querySelector("h1,h2,h3,h4,h5,h6,legend")
  if (heading !== null) return plainText(heading)
  return element.getAttribute("name") ?? element.getAttribute("id") ?? element.getAttribute("action") ?? ""
}

export const isSubmit = (element: Element, tag: string): boolean => {
  if (tag === "button") return ((element as HTMLButtonElement).type || "submit") === "submit"
  if (tag === "input")
    return (element as HTMLInputElement).type === "submit" || (element as HTMLInputElement).type === "image"
  return false
}
