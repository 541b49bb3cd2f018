export { type LoginDemoOptions, type LoginDemoReport, runLoginDemo } from "./LoginDemo.ts"
export {
  runTour,
  summaryTable,
  type TourOptions,
  type TourReport,
  type TourRow,
  tourPlanner,
} from "./Tour.ts"
