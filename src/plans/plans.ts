import { FREE_MODEL_IDS, MODELS } from "../catalog/models";

export type PlanId = "free" | "personal" | "pro" | "corporate";
export const PLAN_IDS: readonly PlanId[] = ["free", "personal", "pro", "corporate"];

export interface Plan {
  id: PlanId;
  display_name: string;
  price_usd_month: number;
  /** Per 24-hour window; null is unlimited. */
  daily_requests: number | null;
  rpm: number;
  /** null: every catalog model. */
  models: readonly string[] | null;
  agentguard: boolean;
  description: string;
  /** Per-query spend envelope of the cost guard; agent caps default to 5 times this. */
  envelope_usd: number;
}

/** SPEC.md section 8. */
export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: "free", display_name: "Free", price_usd_month: 0, daily_requests: 1000, rpm: 10,
    models: FREE_MODEL_IDS, agentguard: true, envelope_usd: 0.01,
    description: "Try the gateway on the three cheapest budget models.",
  },
  personal: {
    id: "personal", display_name: "Personal", price_usd_month: 0, daily_requests: 1000, rpm: 100,
    models: null, agentguard: true, envelope_usd: 0.05,
    description: "Sandbox access to every model for personal projects.",
  },
  pro: {
    id: "pro", display_name: "Pro", price_usd_month: 49, daily_requests: 50000, rpm: 300,
    models: null, agentguard: true, envelope_usd: 0.5,
    description: "All 27 models with production limits for teams shipping AI features.",
  },
  corporate: {
    id: "corporate", display_name: "Corporate", price_usd_month: 499, daily_requests: null, rpm: 1000,
    models: null, agentguard: true, envelope_usd: 2,
    description: "Unlimited daily requests on all models, with priority routing and an SLA.",
  },
};

export function isPlanId(s: string): s is PlanId {
  return (PLAN_IDS as readonly string[]).includes(s);
}

export function modelAccess(plan: Plan) {
  return plan.models
    ? { type: "allowlist" as const, count: plan.models.length, models: [...plan.models] }
    : { type: "all" as const, count: MODELS.length, models: null };
}
