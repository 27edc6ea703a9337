/**
 * The public forms' behaviour (forms/*.tsx render them; they work without this as classic posts):
 * every `form[data-form]` inside the root is checked with the shared rules and their messages, sent
 * as JSON, and answered in place. While sending the button is busy; a refusal shows the server's
 * message in the form and keeps every value; a success shows the confirmation (Contact: 'Send another
 * message'; Feedback: a thank-you; Contact Sales: closes its dialog after 3 seconds and clears the
 * form; newsletter: 'Check your inbox'). Feedback reads ?subject= (e.g. 'Request Template').
 * No React and no zod here: this is a few KB on content pages.
 */
import { ApiRequestError, callApi } from '@dropsite/shared/browser/api-client';
import { checkForm, FORM_ENDPOINTS, FORM_KINDS, FORM_LIMITS, HONEYPOT_FIELD, SALES_DIALOG_CLOSE_MS, type TFieldProblem, type TFormKind } from '@dropsite/shared/browser/form-rules';

type TControl = HTMLInputElement | HTMLTextAreaElement;

const NO_CONNECTION = 'Your message could not be sent: no connection. Check your connection and try again.';
const UNEXPECTED = 'Your message could not be sent. Please try again in a moment.';

export function mount(root: HTMLElement): void {
  supplyInvokerCommands();
  const forms = root instanceof HTMLFormElement ? [root] : Array.from(root.querySelectorAll<HTMLFormElement>('form[data-form]'));
  for (const form of forms) enhance(form);
}

let hasInvokerFallback = false;

/**
 * The Contact Sales dialog opens and closes with invoker commands (`commandfor` + `command`), which
 * need no script; a browser without them gets the same behaviour from here.
 */
function supplyInvokerCommands(): void {
  if (hasInvokerFallback || 'commandForElement' in HTMLButtonElement.prototype) return;
  hasInvokerFallback = true;
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button[commandfor]') : null;
    const dialog = button ? document.getElementById(button.getAttribute('commandfor') ?? '') : null;
    if (!button || !(dialog instanceof HTMLDialogElement)) return;
    const command = button.getAttribute('command');
    if (command === 'show-modal' && !dialog.open) dialog.showModal();
    else if (command === 'close' && dialog.open) dialog.close();
  });
}

function isFormKind(value: string | undefined): value is TFormKind {
  return (FORM_KINDS as readonly string[]).includes(value ?? '');
}

function enhance(form: HTMLFormElement): void {
  const kind = form.dataset.form;
  if (!isFormKind(kind) || form.dataset.enhanced === 'true') return;
  form.dataset.enhanced = 'true';
  // The shared rules and their messages replace the browser's bubbles; the required attributes stay for JavaScript off.
  form.noValidate = true;
  if (kind === 'feedback') fillSubjectFromAddress(form);

  let isBusy = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (isBusy) return;
    isBusy = true;
    void send(form, kind).finally(() => {
      isBusy = false;
    });
  });
  // A field's message goes once what is typed satisfies it.
  form.addEventListener('input', (event) => {
    const control = event.target;
    if (!(control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) || !control.name) return;
    if (control.getAttribute('aria-invalid') !== 'true' && control.type !== 'radio') return;
    const problem = checkForm(kind, valuesOf(form)).find((p) => p.field === control.name);
    if (!problem) setFieldError(form, control.name, null);
  });

  const done = doneOf(form);
  done?.querySelector<HTMLButtonElement>('[data-form-again]')?.addEventListener('click', () => showForm(form));
}

/** /feedback?subject=Request%20Template fills the subject (the page is prerendered, so only here). */
function fillSubjectFromAddress(form: HTMLFormElement): void {
  const subject = new URLSearchParams(window.location.search).get('subject')?.trim().slice(0, FORM_LIMITS.subject);
  const field = form.elements.namedItem('subject');
  if (subject && field instanceof HTMLInputElement && field.value === '') field.value = subject;
}

function valuesOf(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') values[name] = value;
  return values;
}

/** The JSON body: trimmed values, the rating as a number, the honeypot as it is (a bot that runs scripts still fills it). */
function bodyOf(values: Record<string, string>): Record<string, string | number> {
  const body: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name === HONEYPOT_FIELD) body[name] = value;
    else if (name === 'rating') {
      if (value !== '') body[name] = Number(value);
    } else body[name] = value.trim();
  }
  return body;
}

async function send(form: HTMLFormElement, kind: TFormKind): Promise<void> {
  const values = valuesOf(form);
  const problems = checkForm(kind, values);
  showProblems(form, problems);
  setFormError(form, null);
  if (problems.length > 0) {
    announce(form, problems.length === 1 ? problems[0]!.message : `${problems.length} fields need your attention.`);
    return;
  }
  setBusy(form, true);
  announce(form, 'Sending…');
  try {
    await callApi(FORM_ENDPOINTS[kind], { method: 'POST', body: bodyOf(values) });
    announce(form, '');
    showDone(form, kind);
  } catch (error) {
    const message = error instanceof ApiRequestError ? (error.status === 0 ? NO_CONNECTION : error.message) : UNEXPECTED;
    announce(form, '');
    setFormError(form, message);
  } finally {
    setBusy(form, false);
  }
}

function showProblems(form: HTMLFormElement, problems: readonly TFieldProblem[]): void {
  const byField = new Map(problems.map((p) => [p.field, p.message]));
  for (const line of form.querySelectorAll<HTMLElement>('[data-error-for]')) setFieldError(form, line.dataset.errorFor ?? '', byField.get(line.dataset.errorFor ?? '') ?? null);
  const first = problems[0];
  if (first) firstControlOf(form, first.field)?.focus();
}

function firstControlOf(form: HTMLFormElement, name: string): TControl | null {
  return form.querySelector<TControl>(`input[name="${name}"]:checked, input[name="${name}"], textarea[name="${name}"]`);
}

function setFieldError(form: HTMLFormElement, name: string, message: string | null): void {
  const line = form.querySelector<HTMLElement>(`[data-error-for="${name}"]`);
  if (line) {
    line.textContent = message ?? '';
    line.hidden = message === null;
  }
  for (const control of form.querySelectorAll<TControl>(`[name="${name}"]`)) {
    if (message === null) control.removeAttribute('aria-invalid');
    else control.setAttribute('aria-invalid', 'true');
  }
}

function setFormError(form: HTMLFormElement, message: string | null): void {
  const box = form.querySelector<HTMLElement>('[data-form-error]');
  const text = box?.querySelector<HTMLElement>('[data-form-error-text]');
  if (!box || !text) return;
  text.textContent = message ?? '';
  box.hidden = message === null;
}

function announce(form: HTMLFormElement, text: string): void {
  const status = form.querySelector<HTMLElement>('[data-form-status]');
  if (status) status.textContent = text;
}

function setBusy(form: HTMLFormElement, isBusy: boolean): void {
  const button = form.querySelector<HTMLButtonElement>('[data-form-submit]');
  if (!button) return;
  if (isBusy) {
    button.dataset.label ??= button.textContent ?? '';
    button.textContent = 'Sending…';
    button.setAttribute('aria-busy', 'true');
    // aria-disabled, not disabled: the button keeps focus while the request runs.
    button.setAttribute('aria-disabled', 'true');
  } else {
    if (button.dataset.label !== undefined) button.textContent = button.dataset.label;
    button.removeAttribute('aria-busy');
    button.removeAttribute('aria-disabled');
  }
}

function doneOf(form: HTMLFormElement): HTMLElement | null {
  return form.parentElement?.querySelector<HTMLElement>('[data-form-done]') ?? null;
}

function showDone(form: HTMLFormElement, kind: TFormKind): void {
  const done = doneOf(form);
  form.reset();
  if (!done) {
    announce(form, 'Sent.');
    return;
  }
  form.hidden = true;
  done.hidden = false;
  done.querySelector<HTMLElement>('[data-form-done-title]')?.focus();
  if (kind === 'sales') {
    // Closed after 3 seconds, or sooner by its own close button or Escape: either way it opens next time on an empty form.
    const dialog = form.closest('dialog');
    const timer = window.setTimeout(() => (dialog?.open ? dialog.close() : showForm(form, { focus: false })), SALES_DIALOG_CLOSE_MS);
    dialog?.addEventListener(
      'close',
      () => {
        window.clearTimeout(timer);
        showForm(form, { focus: false });
      },
      { once: true },
    );
  }
}

function showForm(form: HTMLFormElement, options: { focus: boolean } = { focus: true }): void {
  const done = doneOf(form);
  if (done) done.hidden = true;
  form.reset();
  showProblems(form, []);
  setFormError(form, null);
  form.hidden = false;
  if (options.focus) form.querySelector<TControl>('input:not([tabindex="-1"]), textarea')?.focus();
}
