/**
 * How long ago something happened, in English: 'just now', then minutes, hours and days
 * ('yesterday'), then the date once it is a week or more away. Two wordings, each its own export
 * so a page's bundle carries only the one it shows.
 */

/** `timestamp` and `now` in epoch ms. */
type TFormatRelativeTime = (timestamp: number, now: number) => string;

function relativeTimeFormat(relativeOptions: Intl.RelativeTimeFormatOptions, dateOptions: Intl.DateTimeFormatOptions): TFormatRelativeTime {
  let relative: Intl.RelativeTimeFormat | undefined;
  let date: Intl.DateTimeFormat | undefined;
  return (timestamp, now) => {
    relative ??= new Intl.RelativeTimeFormat('en', relativeOptions);
    date ??= new Intl.DateTimeFormat('en', dateOptions);
    const seconds = Math.round((timestamp - now) / 1000);
    const abs = Math.abs(seconds);
    if (abs < 45) return 'just now';
    if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
    if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
    if (abs < 7 * 86_400) return relative.format(Math.round(seconds / 86_400), 'day');
    return date.format(timestamp);
  };
}

/** The creator's alerts: '5 min. ago', '3 hr. ago', then 'Mar 3'. */
export const formatAlertTime = /* @__PURE__ */ relativeTimeFormat({ numeric: 'auto', style: 'short' }, { month: 'short', day: 'numeric' });

/** A visitor's comments: '5 minutes ago', '3 hours ago', then 'Mar 3, 2026'. */
export const formatCommentTime = /* @__PURE__ */ relativeTimeFormat({ numeric: 'auto' }, { month: 'short', day: 'numeric', year: 'numeric' });
