import { findModel, PROVIDERS } from "../catalog/models";
import type { BrainConfig } from "../routing/types";
import { isObject } from "../shared/data";

/**
 * What is legal but probably not meant: names routing will not find, and entries that can never
 * take effect. Paths are those of the config as written (before normalising drops or merges
 * anything), so an author can find the line.
 */
export function brainWarnings(input: unknown, config: BrainConfig): string[] {
  if (!isObject(input)) return [];
  const warnings: string[] = [];
  const unknownModel = (path: string, id: unknown, effect: string) => {
    if (typeof id === "string" && id.trim() && id.trim() !== "auto" && !findModel(id.trim())) {
      warnings.push(`${path}: unknown model ${JSON.stringify(id.trim())} (GET /v1/models lists the catalog); ${effect}`);
    }
  };

  unknownModel("model", input.model, "routing ignores the pin and routes by mode");
  listOf(input.fallback).forEach((id, i) => unknownModel(`fallback.${i}`, id, "it is skipped"));
  listOf(input.rules).forEach((rule, i) => {
    if (isObject(rule)) unknownModel(`rules.${i}.model`, rule.model, "the rule routes by mode instead");
  });
  listOf(input.blocked).forEach((entry, i) => {
    if (typeof entry !== "string" || !entry.trim()) return;
    const id = entry.trim();
    if (!findModel(id) && !(PROVIDERS as readonly string[]).includes(id)) {
      warnings.push(`blocked.${i}: ${JSON.stringify(id)} is neither a catalog model nor a provider (${PROVIDERS.join(", ")}); it blocks nothing`);
    }
  });

  if (input.max_cost !== undefined && input.max_cost_per_request !== undefined && config.max_cost_per_request !== undefined) {
    warnings.push(`max_cost: both max_cost and max_cost_per_request are set; the lower, ${config.max_cost_per_request} USD, holds`);
  }

  const blocked = new Set(config.blocked ?? []);
  const isBlocked = (id: string) => {
    const model = findModel(id);
    return blocked.has(id) || (model !== undefined && blocked.has(model.provider));
  };
  if (config.model && isBlocked(config.model)) warnings.push(`model: ${JSON.stringify(config.model)} is also blocked, so the pin never applies`);
  for (const id of config.fallback ?? []) {
    if (isBlocked(id)) warnings.push(`fallback: ${JSON.stringify(id)} is also blocked, so it is never tried`);
  }

  // Rules are first-match: everything after one with no condition is dead.
  const rules = listOf(input.rules);
  const catchAll = rules.findIndex((r) => isObject(r) && (r.when === undefined || (isObject(r.when) && Object.keys(r.when).length === 0)));
  if (catchAll >= 0 && catchAll < rules.length - 1) {
    warnings.push(`rules.${catchAll + 1}: never matches: rules.${catchAll} has no condition and matches every request first`);
  }
  return warnings;
}

const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
