/** The header's section links, as a list: in its bar, or in the mobile menu. */
interface IHeaderLinksProps {
  links: readonly { href: string; label: string }[];
  linkClassName: 'site-header__link' | 'site-header__drawer-link';
  /** The page shown, marked `aria-current` among the links. */
  currentPath?: string;
  /** Following a link (the app's menu closes). */
  onFollow?: () => void;
}

export function HeaderLinks({ links, linkClassName, currentPath, onFollow }: IHeaderLinksProps) {
  return (
    <ul role="list">
      {links.map((link) => (
        <li key={link.href}>
          <a className={linkClassName} href={link.href} aria-current={link.href === currentPath ? 'page' : undefined} onClick={onFollow}>
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
