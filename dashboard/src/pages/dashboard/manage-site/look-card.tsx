/** The template, the look (style, light or dark, hero layout, the visitors' light/dark switch) and the order of the files. */
import { useId } from 'react';
import { SITE_SETTINGS, TEMPLATE_IDS } from '@dropsite/shared';
import { LookFields } from '../../../ui/look-fields.tsx';
import { TEMPLATES } from '../../../wizard/template-step.tsx';
import type { TSettingsForm } from '../manage-forms.ts';
import { SettingsCard, type TSettingsCardProps } from './settings-card.tsx';
import '../../../ui/label-text.css';

export function LookCard({ form, set }: TSettingsCardProps) {
  const ids = { template: useId(), fileOrder: useId() };
  return (
    <SettingsCard title="Look" intro="The template arranges your files; the style, light or dark and the hero layout are how every visitor sees the site.">
      <div className="manage-field">
        <label htmlFor={ids.template} className="label-text">
          Template
        </label>
        <select id={ids.template} className="manage-input" value={form.template} onChange={(e) => set('template', e.target.value as TSettingsForm['template'])}>
          {TEMPLATE_IDS.map((id) => (
            <option key={id} value={id}>
              {TEMPLATES[id].name}
            </option>
          ))}
        </select>
      </div>
      <LookFields look={form.look} onChange={(change) => set('look', { ...form.look, ...change })} />
      <div className="manage-field">
        <label htmlFor={ids.fileOrder} className="label-text">
          File order
        </label>
        <select
          id={ids.fileOrder}
          className="manage-input"
          value={form.fileOrder ?? SITE_SETTINGS.fileOrder.default}
          onChange={(e) => set('fileOrder', e.target.value as TSettingsForm['fileOrder'])}
        >
          {SITE_SETTINGS.fileOrder.options.map((order) => (
            <option key={order} value={order}>
              {SITE_SETTINGS.fileOrder.labels[order]}
            </option>
          ))}
        </select>
      </div>
    </SettingsCard>
  );
}
