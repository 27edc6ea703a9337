/**
 * Where the public forms go on /contact, /feedback and /payment. The forms themselves (their
 * fields, their island and the calls they make) live in `../forms/`; until each is in place its
 * slot says where to reach us instead, so a page never shows a form that sends nothing.
 */

function Pending({ what }: { what: string }) {
  return (
    <div className="form-slot" data-form-slot>
      <p>The {what} form is not available yet. Please come back shortly.</p>
    </div>
  );
}

export function ContactFormSlot() {
  return <Pending what="contact" />;
}

export function FeedbackFormSlot() {
  return <Pending what="feedback" />;
}

export function SalesFormSlot() {
  return <Pending what="Contact Sales" />;
}
