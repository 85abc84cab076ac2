CREATE TABLE `agent_runs` (
	`run_id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`key_id` text NOT NULL,
	`idempotency_key` text,
	`workspace_id` text,
	`goal` text NOT NULL,
	`status` text NOT NULL,
	`policy` text NOT NULL,
	`strategy` text NOT NULL,
	`plan` text DEFAULT '[]' NOT NULL,
	`steps_taken` integer DEFAULT 0 NOT NULL,
	`cost_nanos` integer DEFAULT 0 NOT NULL,
	`max_cost_nanos` integer NOT NULL,
	`output` text DEFAULT '' NOT NULL,
	`output_hash` text,
	`trajectory_proof` text,
	`alerts` text DEFAULT '[]' NOT NULL,
	`budget` text NOT NULL,
	`final_message` text,
	`created_at` integer NOT NULL,
	`completed_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agent_runs_owner_idempotency` ON `agent_runs` (`owner_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `agent_runs_owner_created` ON `agent_runs` (`owner_id`,`created_at`,`run_id`);--> statement-breakpoint
CREATE TABLE `agent_steps` (
	`run_id` text NOT NULL,
	`idx` integer NOT NULL,
	`role` text NOT NULL,
	`model` text NOT NULL,
	`intensity` text NOT NULL,
	`strategy` text NOT NULL,
	`cost_nanos` integer NOT NULL,
	`confidence` real NOT NULL,
	`input_hash` text NOT NULL,
	`output_hash` text NOT NULL,
	`step_proof` text NOT NULL,
	`timestamp` text NOT NULL,
	PRIMARY KEY(`run_id`, `idx`)
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`key_hash` text NOT NULL,
	`prefix` text NOT NULL,
	`plan` text NOT NULL,
	`owner_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_prefix` ON `api_keys` (`prefix`);--> statement-breakpoint
CREATE INDEX `api_keys_revoked_at` ON `api_keys` (`revoked_at`) WHERE "api_keys"."revoked_at" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `audit_events` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`workspace_id` text,
	`event_type` text NOT NULL,
	`actor` text NOT NULL,
	`payload` text NOT NULL,
	`decision` text,
	`risk_score` integer,
	`risk_tier` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_events_owner_created` ON `audit_events` (`owner_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_events_owner_ws_created` ON `audit_events` (`owner_id`,`workspace_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `brain_shares` (
	`id` text PRIMARY KEY NOT NULL,
	`share_id` text NOT NULL,
	`owner_id` text NOT NULL,
	`title` text,
	`config` text NOT NULL,
	`brain_md` text,
	`valid` integer NOT NULL,
	`errors` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `brain_shares_share_id` ON `brain_shares` (`share_id`);--> statement-breakpoint
CREATE INDEX `brain_shares_owner_id` ON `brain_shares` (`owner_id`,`id`);--> statement-breakpoint
CREATE TABLE `handoffs` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`seq` integer NOT NULL,
	`objective` text NOT NULL,
	`from_tool` text,
	`to_tool` text,
	`files_touched` text NOT NULL,
	`constraints` text NOT NULL,
	`risks` text NOT NULL,
	`validation` text NOT NULL,
	`recommended_next_action` text,
	`action_kind` text NOT NULL,
	`est_cost` real,
	`prev_handoff_id` text,
	`prev_hash` text,
	`prev_signature` text,
	`subject` text NOT NULL,
	`hash` text NOT NULL,
	`signature` text,
	`signing_key_id` text,
	`risk_score` integer NOT NULL,
	`risk_tier` text NOT NULL,
	`risk_factors` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `handoffs_workspace_seq` ON `handoffs` (`owner_id`,`workspace_id`,`seq`);--> statement-breakpoint
CREATE TABLE `proof_receipts` (
	`request_id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`receipt` text NOT NULL,
	`proof_hash` text NOT NULL,
	`signature` text,
	`signing_key_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `usage_events` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`key_id` text NOT NULL,
	`request_id` text NOT NULL,
	`endpoint` text NOT NULL,
	`model` text NOT NULL,
	`provider` text NOT NULL,
	`mode` text NOT NULL,
	`prompt_tokens` integer NOT NULL,
	`completion_tokens` integer NOT NULL,
	`total_tokens` integer NOT NULL,
	`cost_nanos` integer NOT NULL,
	`latency_ms` integer NOT NULL,
	`fallback` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `usage_events_owner_created` ON `usage_events` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `workspace_manifests` (
	`owner_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`manifest` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`owner_id`, `workspace_id`)
);
