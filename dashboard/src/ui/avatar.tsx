import type { TCreatorPublic } from '@dropsite/shared';

/** Up to two initials of the name (of the address when there is no name): 'Mara Lind' → 'ML'. */
export function initialsOf(creator: Pick<TCreatorPublic, 'name' | 'email'>): string {
  // The first letter or digit of each word: 'Mara <Lind>' is 'ML', not 'M<'.
  const firstLetter = (word: string) => /[\p{L}\p{N}]/u.exec(word)?.[0] ?? '';
  const letters = creator.name.split(/\s+/).map(firstLetter).filter(Boolean).slice(0, 2);
  if (letters.length === 0) letters.push(firstLetter(creator.email) || '?');
  return letters.join('').toUpperCase();
}

/**
 * The creator's initials in a circle; decorative, the name is always said beside it or in a label.
 * Drawn by CSS from `data-initials`, not as text: inside the account button, whose name says whose
 * account it is, letters as text would be visible words the button's name does not contain.
 */
export function Avatar({ creator, size = 'small' }: { creator: Pick<TCreatorPublic, 'name' | 'email'>; size?: 'small' | 'large' }) {
  return <span className="avatar" data-size={size} data-initials={initialsOf(creator)} aria-hidden="true" />;
}
