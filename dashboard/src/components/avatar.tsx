import type { TCreatorPublic } from '@dropsite/shared';

/** Up to two initials of the name (of the address when there is no name): 'Mara Lind' → 'ML'. */
export function initialsOf(creator: Pick<TCreatorPublic, 'name' | 'email'>): string {
  const words = creator.name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 0 ? words.slice(0, 2).map((w) => [...w][0] ?? '') : [[...creator.email][0] ?? '?'];
  return letters.join('').toUpperCase();
}

/** The creator's initials in a circle; decorative, the name is always said beside it or in a label. */
export function Avatar({ creator, size = 'small' }: { creator: Pick<TCreatorPublic, 'name' | 'email'>; size?: 'small' | 'large' }) {
  return (
    <span className="avatar" data-size={size} aria-hidden="true">
      {initialsOf(creator)}
    </span>
  );
}
