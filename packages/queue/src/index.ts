export { DEFAULT_CONNECT_TIMEOUT_MS, parseQueueUrl } from "./Connection.ts"
export { type OriginLimit, parseOriginLimit, type TokenAnswer, takeOriginToken } from "./OriginLimits.ts"
export {
  InvalidQueueInput,
  InvalidQueueUrl,
  isQueueError,
  JobNotFound,
  QueueError,
  type QueueErrorReason,
  QueueUnavailable,
} from "./QueueError.ts"
export type { RunEvent } from "./RunEvent.ts"
export {
  DEFAULT_QUEUE_NAME,
  type EnqueuedTask,
  type FollowEvent,
  openTaskQueue,
  type QueuedRun,
  type TaskJobData,
  type TaskJobResult,
  type TaskQueue,
  type TaskQueueOptions,
} from "./TaskQueue.ts"
export {
  DEFAULT_LEASE_WAIT_MS,
  DEFAULT_LOCK_DURATION_MS,
  DEFAULT_MAX_STALLED_COUNT,
  DEFAULT_STALLED_INTERVAL_MS,
  type RunnerResult,
  startTaskWorker,
  type TaskRunner,
  type TaskWorker,
  type TaskWorkerOptions,
} from "./TaskWorker.ts"
