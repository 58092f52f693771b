import type { MailCatalog } from '../mail-catalog.ts';

export const es: MailCatalog = {
  greeting: (name) => `Hola, ${name}:`,
  greetingNoName: 'Hola:',
  linkFallback: 'Si el botón no funciona, copia esta dirección en tu navegador:',
  automated: 'Exam Portal envió este correo automáticamente. Por favor, no respondas a este mensaje.',
  signInCode: {
    subject: 'Tu código de inicio de sesión de Exam Portal',
    preheader: 'Usa este código para terminar de iniciar sesión.',
    intro: 'Usa este código para terminar de iniciar sesión en Exam Portal:',
    codeLabel: 'Tu código',
    expiry: (minutes) => `El código solo se puede usar una vez y caduca en ${minutes} minutos.`,
    notYou: 'Si no intentaste iniciar sesión, es posible que alguien conozca tu contraseña. Cámbiala lo antes posible.',
  },
  confirmEmail: {
    subject: 'Confirma tu dirección de correo electrónico',
    preheader: 'Solo falta un paso para activar tu cuenta de Exam Portal.',
    intro: 'Gracias por registrarte en Exam Portal. Confirma que esta dirección de correo electrónico es tuya.',
    action: 'Confirmar correo electrónico',
    expiry: (hours) => `Este enlace solo se puede usar una vez y caduca en ${hours} horas.`,
    notYou: 'Si no creaste ninguna cuenta, puedes ignorar este correo.',
  },
  resetPassword: {
    subject: 'Restablece tu contraseña de Exam Portal',
    preheader: 'Un enlace para elegir una contraseña nueva.',
    intro: 'Recibimos una solicitud para restablecer la contraseña de tu cuenta de Exam Portal.',
    action: 'Elegir una contraseña nueva',
    expiry: (minutes) => `Este enlace solo se puede usar una vez y caduca en ${minutes} minutos.`,
    notYou: 'Si no lo solicitaste, puedes ignorar este correo; tu contraseña seguirá siendo la misma.',
  },
  invitation: {
    subject: 'Te han invitado a Exam Portal',
    preheader: 'Define tu contraseña para empezar a usar tu cuenta.',
    intro: 'Se ha creado una cuenta de Exam Portal para ti. Define tu contraseña para iniciar sesión por primera vez.',
    action: 'Definir mi contraseña',
    expiry: (hours) => `Este enlace solo se puede usar una vez y caduca en ${hours} horas.`,
    notYou: 'Si no esperabas esta invitación, puedes ignorar este correo.',
  },
  accountExists: {
    subject: 'Ya tienes una cuenta de Exam Portal',
    preheader: 'Alguien intentó registrarse con esta dirección de correo.',
    intro:
      'Alguien intentó crear una cuenta nueva de Exam Portal con esta dirección de correo electrónico, pero ya existe una cuenta con ella.',
    signIn: 'Iniciar sesión',
    forgot: 'Si olvidaste tu contraseña, puedes restablecerla aquí:',
    notYou: 'Si no fuiste tú, puedes ignorar este correo; no ha cambiado nada.',
  },
  passwordChanged: {
    subject: 'Se cambió la contraseña de tu cuenta de Exam Portal',
    preheader: 'Se cerraron todas tus demás sesiones.',
    intro: 'La contraseña de tu cuenta de Exam Portal se acaba de cambiar y se cerraron todas tus demás sesiones.',
    notYou: 'Si no fuiste tú, restablece tu contraseña ahora y ponte en contacto con tu administrador:',
    action: 'Restablecer contraseña',
  },
};
