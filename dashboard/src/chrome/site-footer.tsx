import { NewsletterForm } from '../forms/newsletter-form.tsx';
import { Logo } from '../ui/logo.tsx';
import './site-footer.css';

const FOOTER_GROUPS = [
  {
    heading: 'Company',
    links: [
      { href: '/about-us', label: 'About' },
      { href: '/blog', label: 'Blog' },
      { href: '/contact', label: 'Contact' },
    ],
  },
  {
    heading: 'Support',
    links: [
      { href: '/faq', label: 'FAQ' },
      { href: '/help', label: 'Help Center' },
    ],
  },
  {
    heading: 'Legal',
    links: [
      { href: '/privacy-policy', label: 'Privacy Policy' },
      { href: '/terms-conditions', label: 'Terms & Conditions' },
      { href: '/refund-cancellation', label: 'Refunds & Cancellation' },
    ],
  },
] as const;

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="site-footer__top">
          <div className="site-footer__brand">
            <Logo />
            <p>Deliver files as a page your clients enjoy opening: a link, a QR code and every file ready to view.</p>
            <section className="site-footer__newsletter" aria-labelledby="footer-newsletter-heading">
              <h2 id="footer-newsletter-heading" className="site-footer__heading">
                Product news
              </h2>
              <NewsletterForm idPrefix="footer-newsletter" />
            </section>
          </div>
          <nav className="site-footer__nav" aria-label="Footer">
            {FOOTER_GROUPS.map((group) => (
              <div key={group.heading} className="site-footer__group">
                <h2 className="site-footer__heading">{group.heading}</h2>
                <ul role="list">
                  {group.links.map((link) => (
                    <li key={link.href}>
                      <a href={link.href}>{link.label}</a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        </div>
        <p className="site-footer__legal">© {new Date().getFullYear()} Dropsite</p>
      </div>
    </footer>
  );
}
