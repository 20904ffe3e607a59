export function DemoBanner() {
  return (
    <div className="demo-banner" role="status" data-testid="demo-banner">
      Demo mode: AI and payments are simulated. No real course is written and no money moves.
    </div>
  );
}
