import { Form } from '@remix-run/react';
import { MAX_BRAND_NAME, MAX_LOGO_BYTES, PRODUCT_ACCENT } from '~/domain/brand';
import { SettingChanges } from './setting-changes';

interface BrandingData {
  settings: { name: string | null; accent: string | null; supportEmail: string | null };
  logoUrl: string;
  customLogo: boolean;
  defaults: { name: string; logoUrl: string };
  changes: { id: number; at: string; actorEmail: string; what: string }[];
}

/**
 * The settings page's brand section (ADR 0062): the site's name, logo, accent colour and support
 * email, each empty for the install's default, and the latest changes, each with its rollback.
 * One form posted as multipart, so the logo goes with it with JavaScript on or off.
 */
export function BrandingSettings({
  branding,
  saving,
}: {
  branding: BrandingData;
  saving: boolean;
}) {
  const { settings, defaults } = branding;
  return (
    <section aria-labelledby="brand-heading" className="brand-settings">
      <h2 id="brand-heading">Brand</h2>
      <p>
        Your name, logo and colour on every page, email, certificate, receipt and export. Leave a
        field empty for the default ({defaults.name}).
      </p>
      <Form
        method="post"
        encType="multipart/form-data"
        className="form settings-form"
        data-testid="brand-settings"
      >
        <input type="hidden" name="intent" value="save-brand" />
        <label>
          Site name
          <input
            name="name"
            maxLength={MAX_BRAND_NAME}
            placeholder={defaults.name}
            defaultValue={settings.name ?? ''}
          />
        </label>
        <div className="brand-logo-field">
          <img
            src={branding.logoUrl}
            alt="Current logo"
            width={48}
            height={48}
            data-testid="current-logo"
          />
          <label>
            Logo (SVG, PNG or JPEG, up to {MAX_LOGO_BYTES / 1024} KB)
            <input name="logo" type="file" accept="image/svg+xml,image/png,image/jpeg" />
          </label>
        </div>
        {branding.customLogo ? (
          <label className="checkbox">
            <input name="removeLogo" type="checkbox" />
            Use the default logo again
          </label>
        ) : null}
        <label>
          Accent colour (hex, such as {PRODUCT_ACCENT}; must read well on white)
          <input name="accent" placeholder={PRODUCT_ACCENT} defaultValue={settings.accent ?? ''} />
        </label>
        <label>
          Support email (shown in the footer and as the reply address of emails)
          <input
            name="supportEmail"
            type="email"
            placeholder="none"
            defaultValue={settings.supportEmail ?? ''}
          />
        </label>
        <button type="submit" className="button primary" disabled={saving}>
          Save Brand
        </button>
      </Form>
      <h3>Changes to the brand</h3>
      {branding.changes.length === 0 ? (
        <p>The brand is the install&apos;s default: nothing has been changed yet.</p>
      ) : (
        <SettingChanges
          label="Changes to the brand"
          testId="brand-changes"
          changes={branding.changes}
          rollbackIntent="rollback-brand"
          rollbackLabel={(at) => `Roll back the brand change of ${at}`}
        />
      )}
    </section>
  );
}
