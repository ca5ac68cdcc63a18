import type { StoreI18n } from './types.ts';
import { DOCUMENT_MIME, PRESENTATION_MIME, SCRIPT_MIME, SPREADSHEET_MIME } from '../../protocol/index.ts';

import { plural as forms } from './plural.ts';

/** French: `one` covers 0 and 1 (`Intl.PluralRules`). */
const plural = (n: number, one: string, many: string): string => forms('fr', n, { one, other: many });

/** French words of every element (chosen automatically under `lang="fr"`). */
export const fr: StoreI18n = {
  locale: 'fr',
  dropzone: {
    label: 'Envoyer des fichiers',
    prompt: 'Déposez ici des fichiers ou des dossiers, collez-les, ou',
    dragOver: 'Relâchez pour ajouter les fichiers',
    browse: 'Parcourir les fichiers',
    browseFolder: 'Parcourir un dossier',
    rejectedTitle: 'Non ajoutés',
    dismiss: 'Fermer',
    reject: {
      type: (name) => `${name} : ce type de fichier n’est pas accepté.`,
      size: (name, limit) => `${name} : dépasse la limite de ${limit}.`,
      count: (name, limit) => `${name} : ${limit} fichiers au plus peuvent être ajoutés.`,
      multiple: (name) => `${name} : un seul fichier peut être ajouté.`,
    },
  },
  list: {
    label: 'Envois',
    empty: 'Aucun envoi pour l’instant.',
    summary: (c) =>
      `${c.done} sur ${c.total} ${plural(c.done, 'envoyé', 'envoyés')}, ${c.sent} sur ${c.size}` +
      (c.active ? `, ${c.active} en cours` : '') +
      (c.failed ? `, ${c.failed} en échec` : ''),
    progressText: (percent, sent, size) => `${percent} % (${sent} sur ${size})`,
    speed: (rate) => rate,
    totalProgress: 'Progression totale',
    timeLeft: (duration) => `encore ${duration}`,
    converted: (kind) => `Envoyé comme ${kind}`,
  },
  states: {
    queued: 'En attente',
    uploading: 'Envoi en cours',
    paused: 'En pause',
    retrying: 'Nouvel essai',
    verifying: 'Vérification',
    done: 'Envoyé',
    failed: 'Échec',
    cancelled: 'Annulé',
    interrupted: 'Interrompu',
  },
  retryCauses: {
    'server-error': 'le service a rencontré une erreur',
    network: 'la connexion a été coupée',
    stall: 'l’envoi était bloqué',
    'rate-limit': 'trop de requêtes',
    offline: 'vous êtes hors ligne',
    'session-expired': 'la session d’envoi a expiré',
    auth: 'reconnexion en cours',
  },
  retrying: (cause, attempt, wait) => `Nouvel essai (n° ${attempt}) car ${cause}${wait ? `, dans ${wait}` : ''}`,
  errors: {
    auth: 'Vous n’êtes pas connecté ou votre session a pris fin.',
    forbidden: 'Vous n’avez pas le droit d’envoyer des fichiers ici.',
    'not-found': 'Le fichier ou le dossier n’existe plus.',
    'bad-request': 'Le service a refusé la demande d’envoi.',
    'too-large': 'Le fichier est trop volumineux pour le service.',
    conversion: 'Ce fichier ne peut pas être converti dans le format choisi.',
    integrity: 'Le fichier enregistré ne correspond pas à celui envoyé.',
    'retries-exhausted': 'L’envoi a échoué trop souvent et a été arrêté.',
    offline: 'Vous êtes hors ligne.',
    cancelled: 'L’envoi a été annulé.',
    'file-changed': 'Le fichier a été modifié sur le disque pendant l’envoi.',
    unknown: 'Une erreur s’est produite.',
  },
  actions: {
    pause: (name) => `Pause de ${name}`,
    resume: (name) => `Reprendre ${name}`,
    cancel: (name) => `Annuler ${name}`,
    retry: (name) => `Réessayer ${name}`,
    remove: (name) => `Retirer ${name} de la liste`,
    rechoose: (name) => `Choisir le fichier de nouveau pour ${name}`,
    discard: (name) => `Abandonner ${name}`,
  },
  buttons: {
    pause: 'Pause',
    resume: 'Reprendre',
    cancel: 'Annuler',
    retry: 'Réessayer',
    remove: 'Retirer',
    rechoose: 'Choisir le fichier',
    discard: 'Abandonner',
  },
  announce: {
    start: (name) => `Envoi de ${name}.`,
    milestone: (name, percent) => `${name} : ${percent} % envoyés.`,
    done: (name) => `${name} envoyé.`,
    failed: (name, reason) => `Échec de ${name} : ${reason}`,
    many: (count) => `${count} envois ont changé d’état.`,
  },
  conversion: {
    label: 'Enregistrer comme',
    keep: 'Garder tel quel',
    kinds: {
      [DOCUMENT_MIME]: 'Document',
      [SPREADSHEET_MIME]: 'Feuille de calcul',
      [PRESENTATION_MIME]: 'Présentation',
      [SCRIPT_MIME]: 'Projet de script',
    },
    ocrLanguage: 'Langue de reconnaissance du texte',
    loading: 'Chargement des conversions…',
    unavailable: 'Les conversions n’ont pas pu être chargées ; les fichiers sont gardés tels quels.',
  },
  uploader: {
    convertAll: 'Convertir les fichiers en formats natifs si possible',
    perFileTitle: 'Choisissez comment enregistrer chaque fichier',
    uploadPending: (count) => `Envoyer ${count} ${plural(count, 'fichier', 'fichiers')}`,
    clearPending: 'Vider',
    shareTitle: 'Partager avec',
    shareEmails: 'Adresses e-mail ou domaines',
    shareEmailsHint: 'Séparez-les par des virgules.',
    shareRole: 'Accès',
    roles: { reader: 'Lecture', writer: 'Modification' },
    shareButton: (count) => `Partager ${count} ${plural(count, 'fichier', 'fichiers')}`,
    shared: (count) => `Partagé avec ${count} ${plural(count, 'personne', 'personnes')}.`,
    shareFailed: (failed) => `${failed} ${plural(failed, 'partage a', 'partages ont')} échoué.`,
    shareInvalid: (value) => `« ${value} » n’est ni une adresse e-mail ni un domaine.`,
    interruptedTitle: 'Envois inachevés',
    interruptedItem: (name, stored, size) => `${name} : ${stored} sur ${size} enregistrés`,
    pendingValidity: 'Attendez la fin des envois.',
    noUploader: 'Aucun outil d’envoi : définissez base-url ou la propriété uploader.',
  },
};
