export default function DashboardCardsPage() {
  return <div data-testid="dashboard-cards" />;
}
