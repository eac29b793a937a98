/** When an article's events happened, under its title (on its card and its page); nothing when its author did not say. */
export function PostPeriod({ period, className }: { period: string; className: string }) {
  if (!period) return null;
  return (
    <p className={className}>
      <span className="visually-hidden">Obdobie: </span>
      {period}
    </p>
  );
}
