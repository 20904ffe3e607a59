import type { PaymentProvider } from '../../../db/schema';
import type { BillingProvider } from './billing-provider.server';
import { paypal } from './paypal.server';
import { razorpayProvider } from './razorpay.server';

/** Every payment provider the product speaks to, by name. */
export const BILLING_PROVIDERS: Record<PaymentProvider, BillingProvider> = {
  paypal,
  razorpay: razorpayProvider,
};
