import { z } from "zod";
import { PROVIDERS, type ProviderId } from "../catalog/models";
import { CERTIFICATIONS, DATA_CLASSES, FRAMEWORKS, type Certification, type DataClass, type Framework } from "./matrix";

/**
 * The compliance policy (SPEC.md 2.18): the request's shape, and the compiled form the gate reads
 * and every response echoes. One schema serves the preview body, `brain_config.compliance` and chat,
 * so a policy means the same thing wherever it is written.
 */
export interface CompiledPolicy {
  /** False when every field is empty: the policy is inert and passes every model. */
  active: boolean;
  provider_allowlist: ProviderId[];
  provider_denylist: ProviderId[];
  allowed_jurisdictions: string[];
  data_residency: string[];
  required_frameworks: Framework[];
  required_certifications: Certification[];
  block_data_classes: DataClass[];
  require_zero_retention: boolean;
}

/** Spelling-insensitive key: "SOC 2 Type II", "soc2-type2" and "SOC2_TYPE_2" all squash alike. */
const squash = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, "").replace(/TYPEII$/, "TYPE2");

const CERTIFICATION_ALIASES: Readonly<Record<string, Certification>> = {
  SOC2: "SOC2-TYPE2",
  SOC2TYPE2: "SOC2-TYPE2",
  ISO27001: "ISO-27001",
  ISOIEC27001: "ISO-27001",
  ISO27017: "ISO-27017",
  ISOIEC27017: "ISO-27017",
  ISO27018: "ISO-27018",
  ISOIEC27018: "ISO-27018",
  ISO27701: "ISO-27701",
  ISOIEC27701: "ISO-27701",
  ISO42001: "ISO-42001",
  ISOIEC42001: "ISO-42001",
  CSASTAR: "CSA-STAR",
};

/** A single value is accepted where a list is expected (`jurisdiction: EU` in a brain config). */
const oneOrMany = <T extends z.ZodType>(item: T) =>
  z
    .preprocess((v) => (typeof v === "string" ? [v] : v), z.array(item).max(64))
    .transform((v): z.output<T>[] => [...new Set(v)] as z.output<T>[]);

const word = z.string().trim().min(1).max(64);

const provider = word.transform((s, ctx) => {
  const id = s.toLowerCase();
  if ((PROVIDERS as readonly string[]).includes(id)) return id as ProviderId;
  ctx.addIssue({ code: "custom", message: `unknown provider "${s}" (known: ${PROVIDERS.join(", ")})` });
  return z.NEVER;
});

/** Jurisdictions and regions are codes (US, EU, CN, GLOBAL); one no provider has is valid and matches nobody. */
const regionCode = word.regex(/^[A-Za-z][A-Za-z0-9-]{1,15}$/, "expected a region or jurisdiction code such as US, EU or CN").transform((s) => s.toUpperCase());

const framework = word.transform((s, ctx) => {
  const id = squash(s);
  if ((FRAMEWORKS as readonly string[]).includes(id)) return id as Framework;
  ctx.addIssue({ code: "custom", message: `unknown framework "${s}" (the matrix tracks ${FRAMEWORKS.join(", ")})` });
  return z.NEVER;
});

const certification = word.transform((s, ctx) => {
  const id = CERTIFICATION_ALIASES[squash(s)];
  if (id) return id;
  ctx.addIssue({ code: "custom", message: `unknown certification "${s}" (the matrix tracks ${CERTIFICATIONS.join(", ")})` });
  return z.NEVER;
});

const dataClass = word.transform((s, ctx) => {
  const id = s.toUpperCase();
  if ((DATA_CLASSES as readonly string[]).includes(id)) return id as DataClass;
  ctx.addIssue({ code: "custom", message: `unknown data class "${s}" (use ${DATA_CLASSES.join(", ")})` });
  return z.NEVER;
});

export const compliancePolicySchema = z
  .strictObject({
    provider_allowlist: oneOrMany(provider).optional(),
    provider_denylist: oneOrMany(provider).optional(),
    jurisdiction: oneOrMany(regionCode).optional(),
    data_residency: oneOrMany(regionCode).optional(),
    frameworks: oneOrMany(framework).optional(),
    certifications: oneOrMany(certification).optional(),
    block_data_classes: oneOrMany(dataClass).optional(),
    require_zero_retention: z.boolean().optional(),
  })
  .transform(compile);

export type CompliancePolicyInput = z.input<typeof compliancePolicySchema>;

function compile(p: {
  provider_allowlist?: ProviderId[];
  provider_denylist?: ProviderId[];
  jurisdiction?: string[];
  data_residency?: string[];
  frameworks?: Framework[];
  certifications?: Certification[];
  block_data_classes?: DataClass[];
  require_zero_retention?: boolean;
}): CompiledPolicy {
  const compiled = {
    provider_allowlist: p.provider_allowlist ?? [],
    provider_denylist: p.provider_denylist ?? [],
    allowed_jurisdictions: p.jurisdiction ?? [],
    data_residency: p.data_residency ?? [],
    required_frameworks: p.frameworks ?? [],
    required_certifications: p.certifications ?? [],
    block_data_classes: DATA_CLASSES.filter((c) => p.block_data_classes?.includes(c)),
    require_zero_retention: p.require_zero_retention ?? false,
  };
  const active = compiled.require_zero_retention || Object.values(compiled).some((v) => Array.isArray(v) && v.length > 0);
  return { active, ...compiled };
}

/** The inert policy: what an omitted `compliance` means. */
export const INERT_POLICY: CompiledPolicy = compile({});
