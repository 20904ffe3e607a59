/** POST /api/razorpaycancel: the same use case as /api/paypalcancel (the caller's own subscription). */
export { action } from './api.paypalcancel';
