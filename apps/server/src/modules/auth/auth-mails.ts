import type { Language } from '@rayo/shared';
import type { MailMessage } from '../../adapters/mail/mailer.ts';

/** The mails of sign-up and password reset, in the language the user chose. */
const texts = {
  en: {
    confirmSubject: 'Confirm your email for Rayo',
    confirmBody: (link: string, hours: number) =>
      `Welcome to Rayo.\n\nOpen this link to confirm your email and set up your organization:\n${link}\n\nThe link works once and expires in ${hours} hours. If you did not sign up, ignore this email.`,
    resetSubject: 'Your Rayo password reset code',
    resetBody: (code: string, link: string, minutes: number) =>
      `Your code to set a new password is ${code}\n\nEnter it on the reset screen, or open:\n${link}\n\nThe code works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email; your password stays as it is.`,
  },
  es: {
    confirmSubject: 'Confirma tu correo para Rayo',
    confirmBody: (link: string, hours: number) =>
      `Te damos la bienvenida a Rayo.\n\nAbre este enlace para confirmar tu correo y configurar tu organización:\n${link}\n\nEl enlace funciona una sola vez y caduca en ${hours} horas. Si no te registraste, ignora este correo.`,
    resetSubject: 'Tu código para restablecer la contraseña de Rayo',
    resetBody: (code: string, link: string, minutes: number) =>
      `Tu código para crear una nueva contraseña es ${code}\n\nEscríbelo en la pantalla de restablecimiento, o abre:\n${link}\n\nEl código funciona una sola vez y caduca en ${minutes} minutos. Si no lo pediste, ignora este correo; tu contraseña no cambia.`,
  },
} satisfies Record<Language, unknown>;

export function emailConfirmationMail(to: string, language: Language, link: string, hours: number): MailMessage {
  const t = texts[language];
  return { to, subject: t.confirmSubject, text: t.confirmBody(link, hours) };
}

export function passwordResetMail(
  to: string,
  language: Language,
  code: string,
  link: string,
  minutes: number,
): MailMessage {
  const t = texts[language];
  return { to, subject: t.resetSubject, text: t.resetBody(code, link, minutes) };
}
