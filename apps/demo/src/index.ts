export { type LoginDemoOptions, type LoginDemoReport, runLoginDemo } from "./LoginDemo.ts"
