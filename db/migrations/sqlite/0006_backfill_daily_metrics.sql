-- The daily counters start from what an existing database already holds: audit events by day,
-- status and tool (and those of a pending action's life, counted again as action.*); completed turns and their tokens from the assistant messages that carry a
-- model (latency was never stored before, so the latency histograms start empty).
INSERT INTO `metrics_daily` (`day`, `name`, `key`, `n`)
SELECT `at` / 86400000, 'audit.' || `status`, `tool`, count(*) FROM `audit_events` GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `metrics_daily` (`day`, `name`, `key`, `n`)
SELECT `at` / 86400000, 'action.' || `status`, `tool`, count(*) FROM `audit_events`
WHERE `action_id` IS NOT NULL GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `metrics_daily` (`day`, `name`, `key`, `n`)
SELECT `created_at` / 86400000, 'turn', '', count(*) FROM `messages`
WHERE `role` = 'assistant' AND `model` IS NOT NULL GROUP BY 1;
--> statement-breakpoint
INSERT INTO `metrics_daily` (`day`, `name`, `key`, `n`)
SELECT `created_at` / 86400000, 'turn.input_tokens', '', sum(coalesce(json_extract(`usage`, '$.inputTokens'), 0))
FROM `messages` WHERE `role` = 'assistant' AND `model` IS NOT NULL GROUP BY 1;
--> statement-breakpoint
INSERT INTO `metrics_daily` (`day`, `name`, `key`, `n`)
SELECT `created_at` / 86400000, 'turn.output_tokens', '', sum(coalesce(json_extract(`usage`, '$.outputTokens'), 0))
FROM `messages` WHERE `role` = 'assistant' AND `model` IS NOT NULL GROUP BY 1;
