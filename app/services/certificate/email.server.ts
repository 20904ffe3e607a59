import { CERTIFICATE_FILENAME } from '~/utils/certificate';
import { brand } from '~/services/brand.server';
import { escapeHtml } from '~/utils/escape';
import { log } from '~/utils/logger.server';
import { emailDelivery, sendEmail } from '../vendors/mailer.server';
import { certificatePng } from './png.server';
import { formatCertificateDate, verificationUrl, type CertificateData } from './template.server';

export function certificateEmail(data: CertificateData, companyName: string, verifyUrl: string) {
  const date = formatCertificateDate(data.completedAt);
  const subject = `Your certificate for ${data.courseTitle}`;
  const html = `<!doctype html>
<html lang="en"><body style="font-family: system-ui, sans-serif; color: #111827; line-height: 1.6">
  <h1 style="font-size: 22px">Congratulations, ${escapeHtml(data.memberName)}!</h1>
  <p>You completed <strong>${escapeHtml(data.courseTitle)}</strong> on ${escapeHtml(date)}.
  Your certificate is attached to this email as ${CERTIFICATE_FILENAME}.</p>
  <p>Certificate ID: <strong>${escapeHtml(data.certificateId)}</strong><br>
  Anyone can check it at <a href="${escapeHtml(verifyUrl)}">${escapeHtml(verifyUrl)}</a>.</p>
  <p>${escapeHtml(companyName)}</p>
</body></html>`;
  const text = [
    `Congratulations, ${data.memberName}!`,
    `You completed ${data.courseTitle} on ${date}. Your certificate is attached as ${CERTIFICATE_FILENAME}.`,
    `Certificate ID: ${data.certificateId}`,
    `Anyone can check it at ${verifyUrl}`,
    companyName,
  ].join('\n\n');
  return { subject, html, text };
}

/**
 * Emails the certificate (PNG attached as certificate.png). The content is
 * always built here from the stored completion; callers choose only the
 * recipient, which must be the member's own address. Never throws.
 */
export async function emailCertificate(to: string, data: CertificateData): Promise<boolean> {
  if (emailDelivery() === 'disabled') {
    log.warn('email.disabled', { to, subject: 'certificate', hint: 'set SMTP_URL' });
    return false;
  }
  try {
    const png = await certificatePng(data);
    const { subject, html, text } = certificateEmail(
      data,
      (await brand()).name,
      verificationUrl(data.certificateId),
    );
    return await sendEmail({
      to,
      subject,
      html,
      text,
      attachments: [{ filename: CERTIFICATE_FILENAME, contentType: 'image/png', content: png }],
    });
  } catch (error) {
    log.error('certificate.email_failed', { certificateId: data.certificateId, error });
    return false;
  }
}
