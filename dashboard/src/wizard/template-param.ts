import { TEMPLATE_IDS, type TTemplateId } from '@dropsite/shared/templates';

/**
 * The template a link asks the wizard to start with: the template gallery's 'Use this template'
 * opens `/?template={id}#upload`. Null without the parameter or for an id that is not a template.
 */
export function templateFromSearch(search: string): TTemplateId | null {
  const id = new URLSearchParams(search).get('template');
  return TEMPLATE_IDS.find((known) => known === id) ?? null;
}
