/** Built-in templates; rows of notification_template override them per code, language and channel. */
export interface Template {
  subject: string | null;
  body: string;
}

const OTP_EMAIL = {
  subject: 'Your one-time password',
  body: 'Dear $user,\n\nYour one-time password is $otp. It is valid for $validMinutes minutes. Do not share it with anyone.\n',
};
const OTP_SMS = { subject: null, body: 'Dear $user, your OTP is $otp, valid for $validMinutes minutes. Do not share it.' };

export const BUILT_IN_TEMPLATES: Record<string, Record<string, Record<'email' | 'sms', Template>>> = {
  'auth-otp': {
    eng: { email: OTP_EMAIL, sms: OTP_SMS },
    fra: {
      email: {
        subject: 'Votre mot de passe à usage unique',
        body: 'Bonjour $user,\n\nVotre mot de passe à usage unique est $otp. Il est valable $validMinutes minutes. Ne le communiquez à personne.\n',
      },
      sms: { subject: null, body: 'Bonjour $user, votre code est $otp, valable $validMinutes minutes. Ne le communiquez pas.' },
    },
  },
  /** the registration processor, once a new registration's identity is stored (MOSIP's RPR_UIN_GEN) */
  RPR_UIN_GEN: {
    eng: {
      email: {
        subject: 'Your UIN has been generated',
        body: 'Dear $name,\n\nYour registration $rid has been processed. Your UIN is $uin.\n',
      },
      sms: { subject: null, body: 'Dear $name, your registration $rid has been processed. Your UIN is $uin.' },
    },
  },
  /** the registration processor, once a later registration changed an identity (update, (de)activation, reprint) */
  RPR_UIN_UPD: {
    eng: {
      email: { subject: 'Your identity has been updated', body: 'Dear $name,\n\nYour request $rid ($change) has been processed.\n' },
      sms: { subject: null, body: 'Dear $name, your request $rid ($change) has been processed.' },
    },
  },
  /** the registration processor, to an identity's previous e-mail and phone when a change replaced them: the old contact hears of it, as banks do */
  RPR_CONTACT_CHANGED: {
    eng: {
      email: {
        subject: 'The contact details of your identity have changed',
        body: 'Dear $name,\n\nRequest $rid changed the e-mail address or phone number of your identity. If you did not ask for this change, contact your registration office at once.\n',
      },
      sms: {
        subject: null,
        body: 'Dear $name, request $rid changed the contact details of your identity. If you did not ask for it, contact your registration office at once.',
      },
    },
  },
  /** pre-registration, when an appointment's slot is gone (a holiday made, the centre closed): no name or address in a subject */
  PREREG_APPOINTMENT_CANCELLED: {
    eng: {
      email: {
        subject: 'Your appointment has been cancelled',
        body: 'Dear $name,\n\nThe registration centre $centre will not open for your appointment of $date at $from (pre-registration $prid), so it has been cancelled. Please book another appointment.\n',
      },
      sms: {
        subject: null,
        body: 'Your appointment of $date at $from (pre-registration $prid) is cancelled: the centre will not open. Please book another one.',
      },
    },
    fra: {
      email: {
        subject: 'Votre rendez-vous a été annulé',
        body: "Bonjour $name,\n\nLe centre d'enregistrement $centre ne sera pas ouvert pour votre rendez-vous du $date à $from (pré-enregistrement $prid) : il a été annulé. Veuillez prendre un autre rendez-vous.\n",
      },
      sms: {
        subject: null,
        body: 'Votre rendez-vous du $date à $from (pré-enregistrement $prid) est annulé : le centre sera fermé. Veuillez en prendre un autre.',
      },
    },
    ara: {
      email: {
        subject: 'تم إلغاء موعدك',
        body: 'السيد(ة) $name،\n\nلن يفتح مركز التسجيل $centre في موعدك يوم $date على الساعة $from (التسجيل المسبق $prid)، لذلك تم إلغاؤه. يرجى حجز موعد آخر.\n',
      },
      sms: { subject: null, body: 'تم إلغاء موعدك يوم $date على الساعة $from (التسجيل المسبق $prid) لأن المركز لن يفتح. يرجى حجز موعد آخر.' },
    },
  },
  'auth-login-otp': {
    eng: { email: { ...OTP_EMAIL, subject: 'Your login one-time password' }, sms: OTP_SMS },
  },
};

/** Replaces $name by its value; longer names first so $otpExpiry is not read as $otp. */
export function render(text: string, variables: Record<string, string>): string {
  const names = Object.keys(variables).sort((a, b) => b.length - a.length);
  if (!names.length) return text;
  const pattern = new RegExp(`\\$(${names.map((n) => n.replace(/[^\w]/g, '')).join('|')})`, 'g');
  return text.replace(pattern, (_, name: string) => variables[name] ?? '');
}
