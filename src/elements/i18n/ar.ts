import { DOCUMENT_MIME, PRESENTATION_MIME, SCRIPT_MIME, SPREADSHEET_MIME } from '../../protocol/index.ts';
import { plural } from './plural.ts';
import type { StoreI18n } from './types.ts';

/** Arabic counts: zero, one, two, few (3–10), many (11–99) and other, each with its own noun form. */
const files = (count: number): string =>
  plural('ar', count, {
    zero: 'لا ملفات',
    one: 'ملف واحد',
    two: 'ملفان',
    few: '# ملفات',
    many: '# ملفًا',
    other: '# ملف',
  });
const uploads = (count: number): string =>
  plural('ar', count, {
    zero: 'لا عمليات رفع',
    one: 'عملية رفع واحدة',
    two: 'عمليتا رفع',
    few: '# عمليات رفع',
    many: '# عملية رفع',
    other: '# عملية رفع',
  });
const people = (count: number): string =>
  plural('ar', count, {
    zero: 'لا أحد',
    one: 'شخص واحد',
    two: 'شخصين',
    few: '# أشخاص',
    many: '# شخصًا',
    other: '# شخص',
  });

/** Arabic words of every element (chosen automatically under `lang="ar"`; the page sets `dir="rtl"`). */
export const ar: StoreI18n = {
  locale: 'ar',
  dropzone: {
    label: 'رفع الملفات',
    prompt: 'أفلِت الملفات أو المجلدات هنا، أو الصقها، أو',
    dragOver: 'أفلِت لإضافة الملفات',
    browse: 'اختيار ملفات',
    browseFolder: 'اختيار مجلد',
    rejectedTitle: 'لم تُضَف',
    dismiss: 'إغلاق',
    reject: {
      type: (name) => `${name}: نوع الملف هذا غير مقبول.`,
      size: (name, limit) => `${name}: أكبر من الحد المسموح ${limit}.`,
      count: (name, limit) => `${name}: يمكن إضافة ${limit} ملفات على الأكثر.`,
      multiple: (name) => `${name}: يمكن إضافة ملف واحد فقط.`,
      'min-size': (name, limit) => `${name}: أصغر من الحد الأدنى ${limit}.`,
      'total-size': (name, limit) => `${name}: ستتجاوز الملفات معًا الحد المسموح ${limit}.`,
      skipped: (name) => `${name}: تخطّته هذه الصفحة.`,
      'hook-error': (name, message) => `${name}: تعذّر تجهيزه للرفع (${message}).`,
    },
  },
  list: {
    label: 'عمليات الرفع',
    empty: 'لا توجد عمليات رفع بعد.',
    summary: (c) =>
      `رُفع ${c.done} من ${c.total}، ${c.sent} من ${c.size}` +
      (c.active ? `، ${c.active} قيد التنفيذ` : '') +
      (c.failed ? `، ${c.failed} فشل` : ''),
    progressText: (percent, sent, size) => `${percent}٪ (${sent} من ${size})`,
    totalProgress: 'التقدم الإجمالي',
    bulk: {
      label: 'كل عمليات الرفع',
      pauseAll: 'إيقاف الكل مؤقتًا',
      resumeAll: 'استئناف الكل',
      retryFailed: 'إعادة محاولة الفاشلة',
      cancelAll: 'إلغاء الكل',
      clearFinished: 'مسح المكتملة',
    },
    speed: (rate) => rate,
    timeLeft: (duration) => `متبقٍ ${duration}`,
    converted: (kind) => `رُفع بصيغة ${kind}`,
    resized: (original, sent) => `${original}، تم تصغيرها إلى ${sent}`,
    downloadButton: 'تنزيل',
    download: (name) => `تنزيل ${name}`,
    downloadAs: (name) => `تنزيل ${name} بصيغة`,
    downloadAsPrompt: 'تنزيل بصيغة…',
    downloadFailed: (name) => `تعذّر تنزيل ${name}.`,
  },
  states: {
    queued: 'في الانتظار',
    uploading: 'جارٍ الرفع',
    paused: 'متوقف مؤقتًا',
    retrying: 'إعادة المحاولة',
    verifying: 'جارٍ التحقق',
    done: 'تم الرفع',
    failed: 'فشل',
    cancelled: 'أُلغي',
    interrupted: 'انقطع',
  },
  retryCauses: {
    'server-error': 'حدث خطأ في الخدمة',
    network: 'انقطع الاتصال',
    stall: 'توقف الرفع',
    'rate-limit': 'الطلبات كثيرة جدًا',
    offline: 'أنت غير متصل',
    'session-expired': 'انتهت جلسة الرفع',
    auth: 'تجري إعادة تسجيل الدخول',
  },
  retrying: (cause, attempt, wait) => `إعادة المحاولة (المحاولة ${attempt}) لأن ${cause}${wait ? `، بعد ${wait}` : ''}`,
  errors: {
    auth: 'لم تسجّل الدخول، أو انتهت جلستك.',
    forbidden: 'غير مسموح لك بالرفع هنا.',
    'not-found': 'الملف أو المجلد لم يعد موجودًا.',
    'bad-request': 'رفضت الخدمة طلب الرفع.',
    'too-large': 'الملف أكبر مما تقبله الخدمة.',
    conversion: 'لا يمكن تحويل هذا الملف إلى النوع المختار.',
    integrity: 'الملف المحفوظ لا يطابق ما أُرسل.',
    'retries-exhausted': 'فشل الرفع مرارًا فأُوقف.',
    offline: 'أنت غير متصل.',
    cancelled: 'أُلغي الرفع.',
    'file-changed': 'تغيّر الملف على القرص أثناء رفعه.',
    rejected: 'رُفض هذا الملف قبل رفعه.',
    unknown: 'حدث خطأ ما.',
  },
  actions: {
    pause: (name) => `إيقاف ${name} مؤقتًا`,
    resume: (name) => `استئناف ${name}`,
    cancel: (name) => `إلغاء ${name}`,
    retry: (name) => `إعادة محاولة ${name}`,
    remove: (name) => `إزالة ${name} من القائمة`,
    rechoose: (name) => `اختيار الملف مجددًا لـ ${name}`,
    discard: (name) => `تجاهل ${name}`,
  },
  buttons: {
    pause: 'إيقاف مؤقت',
    resume: 'استئناف',
    cancel: 'إلغاء',
    retry: 'إعادة محاولة',
    remove: 'إزالة',
    rechoose: 'اختيار الملف',
    discard: 'تجاهل',
  },
  announce: {
    start: (name) => `جارٍ رفع ${name}.`,
    milestone: (name, percent) => `${name}: رُفع ${percent}٪.`,
    done: (name) => `تم رفع ${name}.`,
    failed: (name, reason) => `فشل ${name}: ${reason}`,
    many: (count) => `تغيّرت حالة ${uploads(count)}.`,
  },
  conversion: {
    label: 'الحفظ بصيغة',
    keep: 'الإبقاء كما هو',
    kinds: {
      [DOCUMENT_MIME]: 'مستند',
      [SPREADSHEET_MIME]: 'جدول بيانات',
      [PRESENTATION_MIME]: 'عرض تقديمي',
      [SCRIPT_MIME]: 'مشروع نص برمجي',
    },
    ocrLanguage: 'لغة التعرّف على النص',
    loading: 'جارٍ تحميل التحويلات…',
    unavailable: 'تعذّر تحميل التحويلات؛ ستُحفظ الملفات كما هي.',
  },
  uploader: {
    convertAll: 'تحويل الملفات إلى الصيغ الأصلية متى أمكن',
    perFileTitle: 'اختر طريقة حفظ كل ملف',
    uploadPending: (count) => `رفع ${files(count)}`,
    clearPending: 'مسح',
    shareTitle: 'المشاركة مع',
    shareEmails: 'عناوين البريد الإلكتروني أو النطاقات',
    shareEmailsHint: 'افصل بينها بفواصل.',
    shareRole: 'الصلاحية',
    roles: { reader: 'يمكنه العرض', writer: 'يمكنه التعديل' },
    shareButton: (count) => `مشاركة ${files(count)}`,
    shared: (count) => `تمت المشاركة مع ${people(count)}.`,
    shareFailed: (failed) =>
      `فشل منح ${plural('ar', failed, { one: 'صلاحية واحدة', two: 'صلاحيتين', few: '# صلاحيات', other: '# صلاحية' })}.`,
    shareInvalid: (value) => `«${value}» ليس عنوان بريد إلكتروني ولا نطاقًا.`,
    interruptedTitle: 'عمليات رفع غير مكتملة',
    interruptedItem: (name, stored, size) => `${name}: حُفظ ${stored} من ${size}`,
    resumeAll: 'استئناف الكل',
    fileChanged: (name) => `تغيّر ${name} منذ بدء رفعه: اختره مجددًا أو تجاهله.`,
    pendingValidity: 'انتظر حتى تكتمل عمليات الرفع.',
    noUploader: 'لا توجد أداة رفع: عيّن base-url أو الخاصية uploader.',
  },
};
