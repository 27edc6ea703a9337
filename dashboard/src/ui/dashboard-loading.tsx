/** What shows while a dashboard page's code arrives: the guard's spinner, before its stylesheet is here. */
import './dashboard-loading.css';

export function DashboardLoading({ label = 'Loading your dashboard…' }: { label?: string }) {
  return (
    <div className="dash-loading" role="status">
      <span className="dash-loading__ring ui-spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
