import type { ProviderId } from "../catalog/models";

/**
 * The regulatory matrix: one row per catalog provider, as data. Every fact is taken from the
 * provider's own trust, privacy or data-processing pages (docs/compliance.md names them per row);
 * a fact we could not confirm from a public page is left out and named in `unconfirmed`, so the gate
 * errs towards excluding a provider rather than clearing it on a guess.
 */
export const MATRIX_VERSION = "rcm-2026.06-baseline";

export const DATA_CLASSES = ["PII", "PHI", "FINANCIAL", "SECRETS"] as const;
export type DataClass = (typeof DATA_CLASSES)[number];

/** Frameworks a provider supports contractually (a DPA for GDPR, a BAA for HIPAA, CCPA terms). */
export const FRAMEWORKS = ["GDPR", "CCPA", "HIPAA"] as const;
export type Framework = (typeof FRAMEWORKS)[number];

/** Independently audited attestations and certificates. */
export const CERTIFICATIONS = ["SOC2-TYPE2", "ISO-27001", "ISO-27017", "ISO-27018", "ISO-27701", "ISO-42001", "CSA-STAR"] as const;
export type Certification = (typeof CERTIFICATIONS)[number];

/**
 * Data regions are where the endpoint this gateway calls (providers/registry.ts) processes data by
 * default. `GLOBAL` means the provider does not pin processing to a region on that endpoint.
 * Regions a provider offers only under a separate contract or endpoint are in `residency_options`,
 * which the gate does not use: the gateway does not call those endpoints.
 */
export interface ProviderCompliance {
  provider: ProviderId;
  legal_entity: string;
  /** Governing jurisdiction of the contracting entity, ISO 3166 alpha-2 (or EU). */
  jurisdiction: string;
  data_regions: readonly string[];
  residency_options: readonly string[];
  frameworks: readonly Framework[];
  certifications: readonly Certification[];
  /** A zero-retention or no-training mode exists for API traffic (by default or on request). */
  zero_retention: boolean;
  cleared: readonly DataClass[];
  sources: readonly string[];
  /** Facts looked for and not confirmed on a public page. */
  unconfirmed: readonly string[];
}

export const COMPLIANCE_MATRIX: Readonly<Record<ProviderId, ProviderCompliance>> = {
  openai: {
    provider: "openai",
    legal_entity: "OpenAI, L.L.C.",
    jurisdiction: "US",
    data_regions: ["US"],
    residency_options: ["EU", "UK", "CA", "JP", "KR", "SG", "IN", "AU", "AE"],
    frameworks: ["GDPR", "CCPA", "HIPAA"],
    certifications: ["SOC2-TYPE2", "ISO-27001", "ISO-27017", "ISO-27018", "CSA-STAR"],
    zero_retention: true,
    cleared: ["PII", "PHI", "FINANCIAL"],
    sources: [
      "https://openai.com/enterprise-privacy",
      "https://trust.openai.com/",
      "https://help.openai.com/en/articles/8660679-how-can-i-get-a-business-associate-agreement-baa-with-openai-for-the-api-services",
      "https://help.openai.com/en/articles/10503543-data-residency-for-the-openai-api",
    ],
    unconfirmed: ["PCI DSS and FedRAMP appear on the trust portal; their scope for the API platform was not confirmed, so they are not listed"],
  },
  anthropic: {
    provider: "anthropic",
    legal_entity: "Anthropic, PBC",
    jurisdiction: "US",
    data_regions: ["US"],
    residency_options: [],
    frameworks: ["GDPR", "HIPAA"],
    certifications: ["SOC2-TYPE2", "ISO-27001", "ISO-42001"],
    zero_retention: true,
    cleared: ["PII", "PHI", "FINANCIAL"],
    sources: [
      "https://trust.anthropic.com/",
      "https://privacy.claude.com/en/articles/10015870-what-certifications-has-anthropic-obtained",
      "https://privacy.claude.com/en/articles/8956058-i-have-a-zero-retention-agreement-with-anthropic-what-products-does-it-apply-to",
      "https://platform.claude.com/docs/en/build-with-claude/api-and-data-retention",
    ],
    unconfirmed: [
      "ISO 42001 is listed by Anthropic's certifications article; one third-party index (May 2026) still reported it absent",
      "CCPA terms were not found on the pages read",
      "no first-party EU processing region was found for api.anthropic.com",
    ],
  },
  google: {
    provider: "google",
    legal_entity: "Google LLC",
    jurisdiction: "US",
    data_regions: ["GLOBAL"],
    residency_options: [],
    frameworks: ["GDPR"],
    certifications: [],
    zero_retention: true,
    cleared: [],
    sources: ["https://ai.google.dev/gemini-api/docs/zdr", "https://ai.google.dev/gemini-api/terms", "https://cloud.google.com/terms/data-processing-addendum"],
    unconfirmed: [
      "Google Cloud's SOC 2 and ISO 27001 scope names Vertex AI; no scope statement covering the Gemini Developer API (generativelanguage.googleapis.com, the endpoint this gateway calls) was found",
      "HIPAA BAA coverage is documented for Vertex AI, not for the Gemini Developer API",
      "the Gemini Developer API offers no region pinning",
    ],
  },
  mistral: {
    provider: "mistral",
    legal_entity: "Mistral AI SAS",
    jurisdiction: "EU",
    data_regions: ["EU"],
    residency_options: ["US"],
    frameworks: ["GDPR"],
    certifications: ["SOC2-TYPE2", "ISO-27001", "ISO-27701"],
    zero_retention: true,
    cleared: ["PII", "FINANCIAL"],
    sources: [
      "https://mistral.ai/cloud/inference/",
      "https://intercom.help/mistral-ai/en/collections/19622605-trust-security-compliance",
      "https://trust.mistral.ai/",
    ],
    unconfirmed: [
      "the SOC 2 Type II and ISO 27001/27701 statement is Mistral's help-center answer as quoted by a third-party registry; the reports themselves are gated behind the trust center",
      "no public statement that Mistral signs a HIPAA BAA for its API",
    ],
  },
  groq: {
    provider: "groq",
    legal_entity: "Groq, Inc.",
    jurisdiction: "US",
    data_regions: ["US"],
    residency_options: [],
    frameworks: ["HIPAA"],
    certifications: [],
    zero_retention: true,
    cleared: [],
    sources: ["https://console.groq.com/docs/your-data", "https://console.groq.com/docs/legal/customer-business-associate-addendum"],
    unconfirmed: [
      "no SOC 2 or ISO 27001 statement was found on a public Groq page",
      "no GDPR data-processing terms were found on the pages read",
      "the data-location section of the data page was not readable; US processing is assumed from the contracting entity",
    ],
  },
  deepseek: {
    provider: "deepseek",
    legal_entity: "Hangzhou DeepSeek Artificial Intelligence Co., Ltd.",
    jurisdiction: "CN",
    data_regions: ["CN"],
    residency_options: [],
    frameworks: [],
    certifications: [],
    zero_retention: false,
    cleared: [],
    sources: ["https://www.wired.com/story/deepseek-ai-china-privacy-data/", "https://tnsafety.com/deepseeks-chinese-data-storage-policy-raises-global-privacy-concerns"],
    unconfirmed: [
      "DeepSeek's own privacy policy was not in the material searched; storage in the PRC is taken from its wording as quoted by the two sources",
      "no certification, DPA, BAA or zero-retention mode was found for the DeepSeek API",
    ],
  },
  xai: {
    provider: "xai",
    legal_entity: "X.AI LLC",
    jurisdiction: "US",
    data_regions: ["US"],
    residency_options: [],
    frameworks: ["HIPAA"],
    certifications: ["SOC2-TYPE2"],
    zero_retention: true,
    cleared: [],
    sources: ["https://docs.x.ai/docs/faq/security", "https://docs.x.ai/developers/faq/security.md"],
    unconfirmed: ["xAI's security FAQ answers the GDPR question with its SOC 2 Type 2 status only; no GDPR DPA was found"],
  },
  together: {
    provider: "together",
    legal_entity: "Together Computer, Inc.",
    jurisdiction: "US",
    data_regions: ["US"],
    residency_options: [],
    frameworks: [],
    certifications: [],
    zero_retention: true,
    cleared: [],
    sources: ["https://docs.together.ai/docs/privacy-and-security", "https://docs.together.ai/docs/zero-data-retention", "https://www.together.ai/privacy"],
    unconfirmed: ["no SOC 2, ISO, HIPAA BAA or GDPR DPA statement was found on a public Together page"],
  },
  fireworks: {
    provider: "fireworks",
    legal_entity: "Fireworks AI, Inc.",
    jurisdiction: "US",
    data_regions: ["US"],
    residency_options: [],
    frameworks: [],
    certifications: [],
    zero_retention: true,
    cleared: [],
    sources: ["https://docs.fireworks.ai/guides/security_compliance/data_handling", "https://docs.fireworks.ai/guides/security_compliance/data_security"],
    unconfirmed: [
      "the data-security page points to trust.fireworks.ai for audit reports without naming them; no certification was confirmed",
      "the processing region of the serverless API was not found",
    ],
  },
  perplexity: {
    provider: "perplexity",
    legal_entity: "Perplexity AI, Inc.",
    jurisdiction: "US",
    data_regions: ["US"],
    residency_options: [],
    frameworks: ["GDPR"],
    certifications: ["SOC2-TYPE2"],
    zero_retention: true,
    cleared: ["PII"],
    sources: ["https://docs.perplexity.ai/docs/resources/privacy-security.md", "https://docs.perplexity.ai/faq/faq", "https://www.perplexity.ai/enterprise/security"],
    unconfirmed: ["for the Sonar API Perplexity lists a 2025 HIPAA gap assessment, not a BAA; HIPAA is not listed"],
  },
  cohere: {
    provider: "cohere",
    legal_entity: "Cohere Inc.",
    jurisdiction: "CA",
    data_regions: ["US"],
    residency_options: [],
    frameworks: ["GDPR", "CCPA"],
    certifications: ["SOC2-TYPE2", "ISO-27001", "ISO-42001"],
    zero_retention: true,
    cleared: ["PII", "FINANCIAL"],
    sources: ["https://cohere-inc.secureframetrust.com/", "https://cohere.com/data-usage-policy", "https://cohere.com/enterprise-data-commitments"],
    unconfirmed: [
      "the trust-center page read directly shows SOC 2 Type II, GDPR and CCPA; ISO 27001 and ISO 42001 are listed there according to a third-party registry (aiprovidertrust.com)",
      "the SaaS API's hosting region (US) is stated by a third-party registry, not by a Cohere page",
      "no HIPAA BAA for the hosted API was found",
    ],
  },
  openrouter: {
    provider: "openrouter",
    legal_entity: "OpenRouter, Inc.",
    jurisdiction: "US",
    data_regions: ["GLOBAL"],
    residency_options: [],
    frameworks: [],
    certifications: [],
    zero_retention: true,
    cleared: [],
    sources: ["https://openrouter.ai/docs/features/zdr", "https://openrouter.ai/docs/guides/privacy/provider-logging"],
    unconfirmed: [
      "OpenRouter forwards each request to one of many upstream providers, so the region and the upstream's certifications vary per request",
      "no certification of OpenRouter itself was found",
    ],
  },
};

export const MATRIX_ROWS: readonly ProviderCompliance[] = Object.values(COMPLIANCE_MATRIX);

/**
 * The clearance rule of the baseline, from the row's facts alone (docs/compliance.md, "Clearances"):
 * PII needs a GDPR data-processing agreement and an independent security attestation; PHI needs
 * that plus a HIPAA BAA; FINANCIAL needs SOC 2 Type II, ISO 27001 and a zero-retention mode. SECRETS
 * are cleared for nobody: no provider should ever receive a live credential. The table stores the
 * result and a test holds the two together, so a row edit cannot clear a class the facts do not.
 */
export function clearanceFromFacts(row: Pick<ProviderCompliance, "frameworks" | "certifications" | "zero_retention">): DataClass[] {
  const attested = row.certifications.includes("SOC2-TYPE2") || row.certifications.includes("ISO-27001");
  const pii = row.frameworks.includes("GDPR") && attested;
  const cleared: DataClass[] = [];
  if (pii) cleared.push("PII");
  if (pii && row.frameworks.includes("HIPAA")) cleared.push("PHI");
  if (row.certifications.includes("SOC2-TYPE2") && row.certifications.includes("ISO-27001") && row.zero_retention) cleared.push("FINANCIAL");
  return cleared;
}
