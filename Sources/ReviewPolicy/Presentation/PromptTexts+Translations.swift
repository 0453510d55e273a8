// The built-in prompt texts, written for this package.
//
// Conventions every entry follows (the tests check them):
// - `{app}` appears exactly once, in the title, where the name reads naturally without
//   inflection (as an apposition such as "the app {app}" where the language needs one);
//   the message and buttons speak of "the app" so that no language has to decline a name.
// - No `%@`, no format specifiers, no bidirectional control characters; right-to-left
//   texts start with a right-to-left letter so they lay out right to left on their own.
// - The tone is the informal-polite register each language uses in system apps.

extension PromptTexts {
  /// The built-in texts, keyed by the identifiers listed in ``supportedLanguages``.
  static let catalog: [String: PromptTexts] = [
    "ar": PromptTexts(
      title: "هل يعجبك {app}؟",
      message: "إذا أعجبك التطبيق، فهل يمكنك تخصيص لحظة لكتابة مراجعة قصيرة؟ هذا يساعدنا كثيرًا. شكرًا لك!",
      rateButton: "قيّم الآن",
      remindButton: "ذكّرني لاحقًا",
      declineButton: "لا، شكرًا"
    ),
    "bg": PromptTexts(
      title: "Харесва ли ви {app}?",
      message:
        "Ако приложението ви харесва, бихте ли отделили минутка да напишете кратък отзив? Това много ни помага. Благодарим!",
      rateButton: "Оценете",
      remindButton: "Напомнете ми по-късно",
      declineButton: "Не, благодаря"
    ),
    "ca": PromptTexts(
      title: "T’agrada {app}?",
      message:
        "Si t’agrada l’aplicació, pots dedicar un moment a escriure’n una ressenya breu? Ens ajuda molt. Gràcies!",
      rateButton: "Valora-la",
      remindButton: "Recorda-m’ho més tard",
      declineButton: "No, gràcies"
    ),
    "cs": PromptTexts(
      title: "Líbí se vám {app}?",
      message:
        "Pokud se vám aplikace líbí, mohli byste si najít chvilku a napsat krátké hodnocení? Moc nám tím pomůžete. Děkujeme!",
      rateButton: "Ohodnotit",
      remindButton: "Připomenout později",
      declineButton: "Ne, děkuji"
    ),
    "da": PromptTexts(
      title: "Kan du lide {app}?",
      message:
        "Hvis du er glad for appen, vil du så bruge et øjeblik på at skrive en kort anmeldelse? Det hjælper os meget. Tak!",
      rateButton: "Bedøm",
      remindButton: "Mind mig om det senere",
      declineButton: "Nej tak"
    ),
    "de": PromptTexts(
      title: "Gefällt dir {app}?",
      message:
        "Wenn dir die App gefällt, würdest du dir einen Moment für eine kurze Bewertung nehmen? Das hilft uns sehr. Danke!",
      rateButton: "Bewerten",
      remindButton: "Später erinnern",
      declineButton: "Nein, danke"
    ),
    "el": PromptTexts(
      title: "Σας αρέσει η εφαρμογή {app};",
      message:
        "Αν σας αρέσει η εφαρμογή, θα αφιερώνατε λίγο χρόνο για να γράψετε μια σύντομη κριτική; Μας βοηθά πολύ. Ευχαριστούμε!",
      rateButton: "Βαθμολογήστε",
      remindButton: "Υπενθύμιση αργότερα",
      declineButton: "Όχι, ευχαριστώ"
    ),
    "en": PromptTexts(
      title: "Enjoying {app}?",
      message: "If you like the app, would you take a moment to write a short review? It really helps. Thank you!",
      rateButton: "Rate now",
      remindButton: "Remind me later",
      declineButton: "No, thanks"
    ),
    "es": PromptTexts(
      title: "¿Te gusta {app}?",
      message:
        "Si te gusta la app, ¿podrías dedicar un momento a escribir una breve reseña? Nos ayuda mucho. ¡Gracias!",
      rateButton: "Valorar",
      remindButton: "Recordármelo más tarde",
      declineButton: "No, gracias"
    ),
    "fa": PromptTexts(
      title: "از {app} راضی هستید؟",
      message:
        "اگر این برنامه را دوست دارید، لطفاً چند لحظه وقت بگذارید و نظری کوتاه بنویسید. این کار خیلی به ما کمک می‌کند. سپاسگزاریم!",
      rateButton: "امتیاز بدهید",
      remindButton: "بعداً یادآوری کن",
      declineButton: "نه، ممنون"
    ),
    "fi": PromptTexts(
      title: "Pidätkö sovelluksesta {app}?",
      message:
        "Jos pidät sovelluksesta, voisitko käyttää hetken lyhyen arvion kirjoittamiseen? Se auttaa meitä paljon. Kiitos!",
      rateButton: "Arvioi",
      remindButton: "Muistuta myöhemmin",
      declineButton: "Ei kiitos"
    ),
    "fr": PromptTexts(
      title: "Vous aimez {app}\u{00A0}?",
      message:
        "Si l’app vous plaît, pourriez-vous prendre un instant pour écrire un court avis\u{00A0}? Cela nous aide beaucoup. Merci\u{00A0}!",
      rateButton: "Noter",
      remindButton: "Me le rappeler plus tard",
      declineButton: "Non merci"
    ),
    "he": PromptTexts(
      title: "אוהבים את {app}?",
      message: "אם האפליקציה מוצאת חן בעיניכם, נשמח אם תקדישו רגע לכתיבת ביקורת קצרה. זה עוזר לנו מאוד. תודה!",
      rateButton: "דרגו עכשיו",
      remindButton: "הזכירו לי מאוחר יותר",
      declineButton: "לא, תודה"
    ),
    "hi": PromptTexts(
      title: "क्या आपको {app} पसंद आ रहा है?",
      message: "अगर आपको यह ऐप पसंद है, तो क्या आप एक छोटी-सी समीक्षा लिखने के लिए कुछ पल निकालेंगे? इससे हमें बहुत मदद मिलती है। धन्यवाद!",
      rateButton: "रेटिंग दें",
      remindButton: "बाद में याद दिलाएँ",
      declineButton: "नहीं, धन्यवाद"
    ),
    "hr": PromptTexts(
      title: "Sviđa li vam se {app}?",
      message:
        "Ako vam se aplikacija sviđa, možete li odvojiti trenutak i napisati kratku recenziju? Puno nam pomaže. Hvala!",
      rateButton: "Ocijeni",
      remindButton: "Podsjeti me kasnije",
      declineButton: "Ne, hvala"
    ),
    "hu": PromptTexts(
      title: "Tetszik a(z) {app}?",
      message:
        "Ha tetszik az alkalmazás, szánnál egy percet egy rövid értékelés megírására? Sokat segítesz vele. Köszönjük!",
      rateButton: "Értékelem",
      remindButton: "Emlékeztess később",
      declineButton: "Nem, köszönöm"
    ),
    "hy": PromptTexts(
      title: "Գնահատեք {app} հավելվածը",
      message:
        "Եթե հավելվածը Ձեզ դուր է գալիս, խնդրում ենք մի պահ տրամադրել և գրել կարճ կարծիք։ Դա մեզ շատ է օգնում։ Շնորհակալություն։",
      rateButton: "Գնահատել",
      remindButton: "Հիշեցնել ավելի ուշ",
      declineButton: "Ոչ, շնորհակալություն"
    ),
    "id": PromptTexts(
      title: "Suka dengan {app}?",
      message:
        "Jika Anda menyukai aplikasi ini, maukah Anda meluangkan waktu sejenak untuk menulis ulasan singkat? Itu sangat membantu kami. Terima kasih!",
      rateButton: "Beri nilai",
      remindButton: "Ingatkan nanti",
      declineButton: "Tidak, terima kasih"
    ),
    "it": PromptTexts(
      title: "Ti piace {app}?",
      message:
        "Se l’app ti piace, ti andrebbe di dedicare un momento a scrivere una breve recensione? Ci aiuta molto. Grazie!",
      rateButton: "Valuta",
      remindButton: "Ricordamelo più tardi",
      declineButton: "No, grazie"
    ),
    "ja": PromptTexts(
      title: "{app}をお楽しみいただけていますか？",
      message: "よろしければ、短いレビューを書いていただけませんか？開発の大きな励みになります。ありがとうございます！",
      rateButton: "評価する",
      remindButton: "あとで通知する",
      declineButton: "いいえ、結構です"
    ),
    "ko": PromptTexts(
      title: "{app}, 마음에 드시나요?",
      message: "앱이 마음에 드셨다면 잠시 시간을 내어 짧은 리뷰를 남겨 주시겠어요? 큰 도움이 됩니다. 감사합니다!",
      rateButton: "평가하기",
      remindButton: "나중에 알림",
      declineButton: "아니요, 괜찮습니다"
    ),
    "ms": PromptTexts(
      title: "Seronok menggunakan {app}?",
      message:
        "Jika anda suka aplikasi ini, sudikah anda meluangkan sedikit masa untuk menulis ulasan ringkas? Ia amat membantu kami. Terima kasih!",
      rateButton: "Beri penilaian",
      remindButton: "Ingatkan saya nanti",
      declineButton: "Tidak, terima kasih"
    ),
    "nb": PromptTexts(
      title: "Liker du {app}?",
      message:
        "Hvis du liker appen, kan du ta deg et øyeblikk til å skrive en kort anmeldelse? Det hjelper oss mye. Tusen takk!",
      rateButton: "Vurder",
      remindButton: "Minn meg på det senere",
      declineButton: "Nei takk"
    ),
    "nl": PromptTexts(
      title: "Vind je {app} leuk?",
      message:
        "Als je de app leuk vindt, wil je dan even de tijd nemen voor een korte review? Dat helpt ons enorm. Bedankt!",
      rateButton: "Beoordeel",
      remindButton: "Herinner me later",
      declineButton: "Nee, bedankt"
    ),
    "pl": PromptTexts(
      title: "Podoba Ci się {app}?",
      message:
        "Jeśli aplikacja Ci się podoba, czy możesz poświęcić chwilę na napisanie krótkiej recenzji? To dla nas duża pomoc. Dziękujemy!",
      rateButton: "Oceń",
      remindButton: "Przypomnij później",
      declineButton: "Nie, dziękuję"
    ),
    "pt-BR": PromptTexts(
      title: "Está curtindo o {app}?",
      message:
        "Se você gosta do app, poderia tirar um momento para escrever uma avaliação curta? Isso nos ajuda muito. Obrigado!",
      rateButton: "Avaliar",
      remindButton: "Lembrar mais tarde",
      declineButton: "Não, obrigado"
    ),
    "pt-PT": PromptTexts(
      title: "Está a gostar da aplicação {app}?",
      message:
        "Se gosta da aplicação, poderia dedicar um momento a escrever uma breve avaliação? Ajuda-nos muito. Obrigado!",
      rateButton: "Avaliar",
      remindButton: "Lembrar-me mais tarde",
      declineButton: "Não, obrigado"
    ),
    "ro": PromptTexts(
      title: "Îți place {app}?",
      message:
        "Dacă îți place aplicația, ai putea să-ți faci puțin timp pentru o scurtă recenzie? Ne ajută foarte mult. Mulțumim!",
      rateButton: "Evaluează",
      remindButton: "Amintește-mi mai târziu",
      declineButton: "Nu, mulțumesc"
    ),
    "ru": PromptTexts(
      title: "Нравится {app}?",
      message:
        "Если вам нравится приложение, пожалуйста, уделите минутку и напишите короткий отзыв. Это очень нам помогает. Спасибо!",
      rateButton: "Оценить",
      remindButton: "Напомнить позже",
      declineButton: "Нет, спасибо"
    ),
    "sk": PromptTexts(
      title: "Páči sa vám {app}?",
      message:
        "Ak sa vám aplikácia páči, mohli by ste si nájsť chvíľu a napísať krátke hodnotenie? Veľmi nám tým pomôžete. Ďakujeme!",
      rateButton: "Ohodnotiť",
      remindButton: "Pripomenúť neskôr",
      declineButton: "Nie, ďakujem"
    ),
    "sv": PromptTexts(
      title: "Gillar du {app}?",
      message: "Om du gillar appen, vill du ta en stund och skriva en kort recension? Det hjälper oss mycket. Tack!",
      rateButton: "Betygsätt",
      remindButton: "Påminn mig senare",
      declineButton: "Nej tack"
    ),
    "th": PromptTexts(
      title: "คุณชอบ {app} ไหม",
      message: "หากคุณชอบแอปนี้ ช่วยสละเวลาสักครู่เขียนรีวิวสั้นๆ ให้เราได้ไหม รีวิวของคุณช่วยเราได้มาก ขอบคุณ!",
      rateButton: "ให้คะแนน",
      remindButton: "เตือนฉันภายหลัง",
      declineButton: "ไม่ล่ะ ขอบคุณ"
    ),
    "tr": PromptTexts(
      title: "{app} uygulamasını beğendiniz mi?",
      message:
        "Uygulamayı beğendiyseniz kısa bir değerlendirme yazmak için birkaç dakikanızı ayırır mısınız? Bu bize çok yardımcı olur. Teşekkürler!",
      rateButton: "Değerlendir",
      remindButton: "Daha sonra hatırlat",
      declineButton: "Hayır, teşekkürler"
    ),
    "uk": PromptTexts(
      title: "Подобається {app}?",
      message:
        "Якщо вам подобається застосунок, приділіть, будь ласка, хвилинку й напишіть короткий відгук. Це дуже нам допомагає. Дякуємо!",
      rateButton: "Оцінити",
      remindButton: "Нагадати пізніше",
      declineButton: "Ні, дякую"
    ),
    "vi": PromptTexts(
      title: "Bạn có thích {app} không?",
      message:
        "Nếu bạn thích ứng dụng này, bạn có thể dành chút thời gian viết một đánh giá ngắn không? Điều đó giúp chúng tôi rất nhiều. Cảm ơn bạn!",
      rateButton: "Đánh giá",
      remindButton: "Nhắc tôi sau",
      declineButton: "Không, cảm ơn"
    ),
    "zh-Hans": PromptTexts(
      title: "喜欢{app}吗？",
      message: "如果你喜欢这个应用，能否花一点时间写一条简短的评价？这对我们帮助很大。谢谢！",
      rateButton: "去评价",
      remindButton: "稍后提醒我",
      declineButton: "不了，谢谢"
    ),
    "zh-Hant": PromptTexts(
      title: "喜歡{app}嗎？",
      message: "如果你喜歡這個 App，能否花一點時間寫一則簡短的評論？這對我們幫助很大。謝謝！",
      rateButton: "前往評分",
      remindButton: "稍後提醒我",
      declineButton: "不用了，謝謝"
    ),
  ]
}
