// The compound tools' errors live in @sextant/core (errors/Tool.ts), so the executor's retry policy
// sees them in the one error union; these names stay importable from @sextant/tools.
export {
  CompoundError,
  type CompoundErrorReason,
  ControlNotFound,
  ListNotFound,
  LoginRejected,
  LoginUnconfirmed,
  RecordsInvalid,
  SchemaInvalid,
  SignInUnfinished,
} from "@sextant/core"
