// The skill library: one markdown file per skill, bundled as text by the wrangler `rules` entry for
// `**/*.md` (wrangler.toml). Adding a skill: a file here, its import and its entry below (docs/skills.md).
import accessibilityReview from "./accessibility-review.md";
import adrWriter from "./adr-writer.md";
import apiDesign from "./api-design.md";
import codeReview from "./code-review.md";
import commitMessage from "./commit-message.md";
import dataPipelineReview from "./data-pipeline-review.md";
import debugging from "./debugging.md";
import dependencyUpgrade from "./dependency-upgrade.md";
import docsEditor from "./docs-editor.md";
import incidentPostmortem from "./incident-postmortem.md";
import migrationReview from "./migration-review.md";
import observabilityReview from "./observability-review.md";
import performanceProfiling from "./performance-profiling.md";
import prDescription from "./pr-description.md";
import promptReview from "./prompt-review.md";
import refactoringPlan from "./refactoring-plan.md";
import regexExplainer from "./regex-explainer.md";
import releaseNotes from "./release-notes.md";
import runbookWriter from "./runbook-writer.md";
import securityAudit from "./security-audit.md";
import sqlTuning from "./sql-tuning.md";
import testWriting from "./test-writing.md";
import threatModel from "./threat-model.md";

/** File name to file text, in file-name order. */
export const LIBRARY_FILES: Readonly<Record<string, string>> = {
  "accessibility-review.md": accessibilityReview,
  "adr-writer.md": adrWriter,
  "api-design.md": apiDesign,
  "code-review.md": codeReview,
  "commit-message.md": commitMessage,
  "data-pipeline-review.md": dataPipelineReview,
  "debugging.md": debugging,
  "dependency-upgrade.md": dependencyUpgrade,
  "docs-editor.md": docsEditor,
  "incident-postmortem.md": incidentPostmortem,
  "migration-review.md": migrationReview,
  "observability-review.md": observabilityReview,
  "performance-profiling.md": performanceProfiling,
  "pr-description.md": prDescription,
  "prompt-review.md": promptReview,
  "refactoring-plan.md": refactoringPlan,
  "regex-explainer.md": regexExplainer,
  "release-notes.md": releaseNotes,
  "runbook-writer.md": runbookWriter,
  "security-audit.md": securityAudit,
  "sql-tuning.md": sqlTuning,
  "test-writing.md": testWriting,
  "threat-model.md": threatModel,
};
