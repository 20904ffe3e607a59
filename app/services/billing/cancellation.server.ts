import { fail, ok, type Result } from '~/domain/result';
import { recordCancellation } from '~/models/subscriptions.server';
import type { User } from '~/models/users.server';
import { log } from '~/utils/logger.server';
import { MESSAGES, paidSubscriptionOf, providerOf } from './providers.server';

const CANCEL_TRIES = 3;

/**
 * Cancels at the provider (tried a few times), then records it: the member
 * keeps the paid plan until the period already paid ends.
 */
export async function cancelSubscription(
  user: User,
  now = new Date(),
): Promise<Result<{ paidUntil: Date }>> {
  const current = await paidSubscriptionOf(user);
  if (!current.ok) return current;
  const subscription = current.value;
  if (subscription.status === 'cancelled') return ok({ paidUntil: subscription.paidUntil! });
  const provider = providerOf(subscription.provider);
  for (let attempt = 1; ; attempt += 1) {
    try {
      await provider.cancelSubscription(
        subscription.providerSubscriptionId,
        'Cancelled by the member',
      );
      break;
    } catch (error) {
      // Already cancelled at the provider (e.g. a retry whose first answer was lost) counts as done.
      const state = await provider
        .fetchSubscription(subscription.providerSubscriptionId)
        .catch(() => undefined);
      if (state?.status === 'cancelled') break;
      log.warn('billing.cancel_failed', { subscriptionId: subscription.id, attempt, error });
      if (attempt >= CANCEL_TRIES) return fail(MESSAGES.cancelFailed, 502);
      await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    }
  }
  const paidUntil = subscription.nextBillingAt ?? now;
  await recordCancellation(subscription.id, now, paidUntil);
  log.info('billing.cancelled', { userId: user.id, subscriptionId: subscription.id });
  return ok({ paidUntil });
}
