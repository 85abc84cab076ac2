import { AllCandidatesFailed, NoProviderConfigured } from "../providers/call";
import { apiError, type ErrorCode } from "../shared/errors";

/**
 * The provider core's domain errors as an endpoint's SPEC.md section 7 error. Each endpoint names
 * the code it uses when every candidate failed (chat: upstream_error; orchestrate and agents have
 * their own). Anything else is rethrown untouched.
 */
export function toApiError(err: unknown, allFailedCode: ErrorCode = "upstream_error"): unknown {
  if (err instanceof AllCandidatesFailed) return apiError(allFailedCode, err.message, { attempts: err.attempts });
  if (err instanceof NoProviderConfigured) return apiError("no_provider_available", err.message);
  return err;
}
