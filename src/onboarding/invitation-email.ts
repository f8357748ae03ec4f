import { escapeHtml } from './page/html.ts';

export interface InvitationEmailInput {
  fullName: string;
  companyName: string;
  link: string;
  expiresAt: Date;
}

const expiryText = (date: Date) =>
  date.toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';

/** The invitation as plain text and HTML; every value from the request is escaped in the HTML. */
export function invitationEmail({ fullName, companyName, link, expiresAt }: InvitationEmailInput) {
  const subject = `${companyName}: please verify your identity`;
  const expiry = expiryText(expiresAt);
  const text = [
    `Hello ${fullName},`,
    '',
    // One line per paragraph: mail clients wrap plain text themselves.
    `${companyName} has asked you to verify your identity. It takes about five minutes: you will enter your personal details and upload a photo or scan of an identity document.`,
    '',
    `Open this link to start: ${link}`,
    '',
    `The link is personal and works until ${expiry}. Do not forward it.`,
    `If you were not expecting this message, you can ignore it or contact ${companyName}.`,
    '',
  ].join('\n');
  const [name, company, href] = [escapeHtml(fullName), escapeHtml(companyName), escapeHtml(link)];
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1d2330">
  <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px">
    <tr><td style="padding:20px 24px;background:#1f3a5f;color:#ffffff;border-radius:8px 8px 0 0;font-size:18px;font-weight:bold">${company}</td></tr>
    <tr><td style="padding:24px;font-size:16px;line-height:1.5">
      <p>Hello ${name},</p>
      <p>${company} has asked you to verify your identity. It takes about five minutes: you will enter your personal details and upload a photo or scan of an identity document.</p>
      <p style="margin:28px 0"><a href="${href}" style="background:#1f5fbf;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:bold">Verify my identity</a></p>
      <p style="font-size:14px">Or copy this address into your browser:<br><a href="${href}" style="color:#1f5fbf;word-break:break-all">${href}</a></p>
      <p style="font-size:14px;color:#4a5263">The link is personal and works until ${escapeHtml(expiry)}. Do not forward it. If you were not expecting this message, you can ignore it or contact ${company}.</p>
    </td></tr>
  </table>
</body>
</html>
`;
  return { subject, text, html };
}
