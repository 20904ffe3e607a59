-- Razorpay events are stored once by what their signature covers (the body's event, entity ids
-- and time, ADR 0036); the unsigned X-Razorpay-Event-Id header is kept as a second key only.
ALTER TABLE `payment_events` ADD `header_event_id` text;
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_events_provider_header_event_unique` ON `payment_events` (`provider`,`header_event_id`);
--> statement-breakpoint
-- Razorpay rows stored before were keyed by that header (or the body's hash): keep it as their
-- header key, so a redelivery of one of them is still recognised.
UPDATE `payment_events` SET `header_event_id` = `provider_event_id` WHERE `provider` = 'razorpay';
