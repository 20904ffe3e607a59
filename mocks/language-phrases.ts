/**
 * What demo mode writes in each course language (app/domain/languages.ts), keyed by the
 * English name the prompt's `Language:` line carries: five topic words for outline titles, the
 * lesson's headings and two sentences (`{s}` is the sub-topic). Enough to show the language's
 * script and direction; English keeps the richer answers of `ai-answers.ts`.
 */
export interface LanguagePhrases {
  topics: [string, string, string, string, string];
  part: string;
  keyIdeas: string;
  example: string;
  summary: string;
  explains: string;
  outline: string;
}

const p = (
  topics: LanguagePhrases['topics'],
  [part, keyIdeas, example, summary]: [string, string, string, string],
  explains: string,
  outline: string,
): LanguagePhrases => ({ topics, part, keyIdeas, example, summary, explains, outline });

export const LANGUAGE_PHRASES: Record<string, LanguagePhrases> = {
  Hindi: p(
    ['परिचय', 'मूल बातें', 'मुख्य अवधारणाएँ', 'व्यवहार में', 'उन्नत विषय'],
    ['भाग', 'मुख्य विचार', 'उदाहरण', 'सारांश'],
    'यह पाठ {s} को सरल शब्दों में समझाता है।',
    'हम मुख्य विचारों, एक उदाहरण और एक छोटे सारांश को देखेंगे।',
  ),
  Bengali: p(
    ['পরিচিতি', 'মৌলিক বিষয়', 'মূল ধারণা', 'বাস্তবে প্রয়োগ', 'উন্নত বিষয়'],
    ['অংশ', 'মূল ধারণা', 'উদাহরণ', 'সারাংশ'],
    'এই পাঠে {s} সহজ ভাষায় ব্যাখ্যা করা হয়েছে।',
    'আমরা মূল ধারণা, একটি উদাহরণ এবং একটি ছোট সারাংশ দেখব।',
  ),
  Tamil: p(
    ['அறிமுகம்', 'அடிப்படைகள்', 'முக்கிய கருத்துகள்', 'நடைமுறையில்', 'மேம்பட்ட தலைப்புகள்'],
    ['பகுதி', 'முக்கிய கருத்துகள்', 'எடுத்துக்காட்டு', 'சுருக்கம்'],
    'இந்தப் பாடம் {s} பற்றி எளிய சொற்களில் விளக்குகிறது.',
    'முக்கிய கருத்துகள், ஓர் எடுத்துக்காட்டு மற்றும் ஒரு சுருக்கத்தைப் பார்ப்போம்.',
  ),
  Telugu: p(
    ['పరిచయం', 'ప్రాథమిక అంశాలు', 'ముఖ్య భావనలు', 'ఆచరణలో', 'ఉన్నత అంశాలు'],
    ['భాగం', 'ముఖ్య ఆలోచనలు', 'ఉదాహరణ', 'సారాంశం'],
    'ఈ పాఠం {s} ను సులభమైన మాటల్లో వివరిస్తుంది.',
    'మనం ముఖ్య ఆలోచనలు, ఒక ఉదాహరణ మరియు ఒక చిన్న సారాంశం చూస్తాం.',
  ),
  Marathi: p(
    ['ओळख', 'मूलभूत गोष्टी', 'मुख्य संकल्पना', 'प्रत्यक्ष वापर', 'प्रगत विषय'],
    ['भाग', 'मुख्य कल्पना', 'उदाहरण', 'सारांश'],
    'हा धडा {s} सोप्या शब्दांत समजावून सांगतो.',
    'आपण मुख्य कल्पना, एक उदाहरण आणि एक छोटा सारांश पाहू.',
  ),
  Spanish: p(
    ['Introducción', 'Fundamentos', 'Conceptos clave', 'En la práctica', 'Temas avanzados'],
    ['Parte', 'Ideas clave', 'Ejemplo', 'Resumen'],
    'Esta lección explica {s} con palabras sencillas.',
    'Veremos las ideas principales, un ejemplo y un breve resumen.',
  ),
  Portuguese: p(
    ['Introdução', 'Fundamentos', 'Conceitos principais', 'Na prática', 'Tópicos avançados'],
    ['Parte', 'Ideias principais', 'Exemplo', 'Resumo'],
    'Esta lição explica {s} em palavras simples.',
    'Veremos as ideias principais, um exemplo e um breve resumo.',
  ),
  French: p(
    ['Introduction', 'Les bases', 'Concepts clés', 'En pratique', 'Sujets avancés'],
    ['Partie', 'Idées clés', 'Exemple', 'Résumé'],
    'Cette leçon explique {s} avec des mots simples.',
    'Nous verrons les idées principales, un exemple et un court résumé.',
  ),
  German: p(
    ['Einführung', 'Grundlagen', 'Kernkonzepte', 'In der Praxis', 'Fortgeschrittene Themen'],
    ['Teil', 'Kernideen', 'Beispiel', 'Zusammenfassung'],
    'Diese Lektion erklärt {s} in einfachen Worten.',
    'Wir sehen uns die wichtigsten Ideen, ein Beispiel und eine kurze Zusammenfassung an.',
  ),
  Italian: p(
    ['Introduzione', 'Fondamenti', 'Concetti chiave', 'In pratica', 'Argomenti avanzati'],
    ['Parte', 'Idee chiave', 'Esempio', 'Riassunto'],
    'Questa lezione spiega {s} con parole semplici.',
    'Vedremo le idee principali, un esempio e un breve riassunto.',
  ),
  Dutch: p(
    ['Introductie', 'Basisprincipes', 'Kernbegrippen', 'In de praktijk', 'Gevorderde onderwerpen'],
    ['Deel', 'Kernideeën', 'Voorbeeld', 'Samenvatting'],
    'Deze les legt {s} in eenvoudige woorden uit.',
    'We bekijken de belangrijkste ideeën, een voorbeeld en een korte samenvatting.',
  ),
  Polish: p(
    ['Wprowadzenie', 'Podstawy', 'Kluczowe pojęcia', 'W praktyce', 'Tematy zaawansowane'],
    ['Część', 'Kluczowe idee', 'Przykład', 'Podsumowanie'],
    'Ta lekcja wyjaśnia {s} prostymi słowami.',
    'Poznamy główne idee, przykład i krótkie podsumowanie.',
  ),
  Russian: p(
    ['Введение', 'Основы', 'Ключевые понятия', 'На практике', 'Продвинутые темы'],
    ['Часть', 'Ключевые идеи', 'Пример', 'Итоги'],
    'Этот урок простыми словами объясняет {s}.',
    'Мы рассмотрим основные идеи, пример и краткое резюме.',
  ),
  Turkish: p(
    ['Giriş', 'Temeller', 'Temel kavramlar', 'Uygulamada', 'İleri konular'],
    ['Bölüm', 'Ana fikirler', 'Örnek', 'Özet'],
    'Bu ders {s} konusunu basit sözcüklerle açıklar.',
    'Ana fikirleri, bir örneği ve kısa bir özeti göreceğiz.',
  ),
  Arabic: p(
    ['مقدمة', 'الأساسيات', 'المفاهيم الرئيسية', 'في التطبيق', 'موضوعات متقدمة'],
    ['الجزء', 'الأفكار الرئيسية', 'مثال', 'ملخص'],
    'يشرح هذا الدرس {s} بكلمات بسيطة.',
    'سنتعرف على الأفكار الرئيسية ومثال وملخص قصير.',
  ),
  Urdu: p(
    ['تعارف', 'بنیادی باتیں', 'اہم تصورات', 'عملی طور پر', 'اعلیٰ موضوعات'],
    ['حصہ', 'اہم خیالات', 'مثال', 'خلاصہ'],
    'یہ سبق {s} کو آسان الفاظ میں سمجھاتا ہے۔',
    'ہم اہم خیالات، ایک مثال اور ایک مختصر خلاصہ دیکھیں گے۔',
  ),
  Indonesian: p(
    ['Pengantar', 'Dasar-dasar', 'Konsep utama', 'Dalam praktik', 'Topik lanjutan'],
    ['Bagian', 'Gagasan utama', 'Contoh', 'Ringkasan'],
    'Pelajaran ini menjelaskan {s} dengan kata-kata sederhana.',
    'Kita akan melihat gagasan utama, sebuah contoh, dan ringkasan singkat.',
  ),
  Vietnamese: p(
    ['Giới thiệu', 'Kiến thức cơ bản', 'Khái niệm chính', 'Trong thực tế', 'Chủ đề nâng cao'],
    ['Phần', 'Ý chính', 'Ví dụ', 'Tóm tắt'],
    'Bài học này giải thích {s} bằng những từ ngữ đơn giản.',
    'Chúng ta sẽ xem các ý chính, một ví dụ và một bản tóm tắt ngắn.',
  ),
  Thai: p(
    ['บทนำ', 'พื้นฐาน', 'แนวคิดหลัก', 'การใช้งานจริง', 'หัวข้อขั้นสูง'],
    ['ส่วนที่', 'แนวคิดหลัก', 'ตัวอย่าง', 'สรุป'],
    'บทเรียนนี้อธิบาย {s} ด้วยคำที่เข้าใจง่าย',
    'เราจะดูแนวคิดหลัก ตัวอย่าง และสรุปสั้น ๆ',
  ),
  Chinese: p(
    ['入门', '基础知识', '核心概念', '实践应用', '进阶主题'],
    ['部分', '主要思想', '例子', '总结'],
    '本课用简单的语言讲解{s}。',
    '我们将学习主要思想、一个例子和一个简短的总结。',
  ),
  Japanese: p(
    ['入門', '基礎', '主要な概念', '実践', '応用トピック'],
    ['パート', '主な考え方', '例', 'まとめ'],
    'このレッスンでは{s}をやさしい言葉で説明します。',
    '主な考え方、例、そして短いまとめを見ていきましょう。',
  ),
  Korean: p(
    ['소개', '기초', '핵심 개념', '실전 활용', '고급 주제'],
    ['파트', '핵심 아이디어', '예제', '요약'],
    '이 강의는 {s}을(를) 쉬운 말로 설명합니다.',
    '핵심 아이디어, 예제, 그리고 짧은 요약을 살펴보겠습니다.',
  ),
};
