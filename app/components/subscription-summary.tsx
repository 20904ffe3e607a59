export interface SubscriptionSummaryProps {
  method: string;
  plan: string;
  subscriptionId: string;
  startTime: string;
  nextBillingTime: string;
  paidUntil: string | null;
  amount: string;
}

/** The provider's subscription as the payment pages show it. */
export function SubscriptionSummary({ summary }: { summary: SubscriptionSummaryProps }) {
  const rows: [string, string, string][] = [
    ['Payment method', summary.method, 'method'],
    ['Plan', summary.plan, 'plan'],
    ['Subscription ID', summary.subscriptionId, 'subscription-id'],
    ['Start time', summary.startTime, 'start-time'],
    summary.paidUntil
      ? ['Paid until', summary.paidUntil, 'paid-until']
      : ['Next billing time', summary.nextBillingTime, 'next-billing-time'],
    ['Amount', summary.amount, 'amount'],
  ];
  return (
    <dl className="subscription-summary" data-testid="subscription-summary">
      {rows.map(([label, value, id]) => (
        <div key={id}>
          <dt>{label}</dt>
          <dd data-testid={`summary-${id}`}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
