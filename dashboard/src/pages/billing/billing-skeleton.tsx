/** The page's shape while the plan and usage load. */
export function BillingSkeleton() {
  return (
    <div className="billing-skeleton" role="status">
      <span className="visually-hidden">Loading your plan and usage…</span>
      <div aria-hidden="true">
        <div className="billing-current billing-current--skeleton">
          <div className="dash-skeleton dash-skeleton--title" />
          <div className="dash-skeleton dash-skeleton--heading" />
          <div className="dash-skeleton dash-skeleton--text" />
        </div>
        <ul role="list" className="billing-usage">
          {[0, 1, 2, 3].map((key) => (
            <li key={key} className="billing-meter">
              <div className="dash-skeleton dash-skeleton--text" />
              <div className="dash-skeleton billing-skeleton__bar" />
            </li>
          ))}
        </ul>
        <ul role="list" className="billing-plans">
          {[0, 1, 2].map((key) => (
            <li key={key} className="billing-plan">
              <div className="dash-skeleton dash-skeleton--title" />
              <div className="dash-skeleton dash-skeleton--lines" />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
