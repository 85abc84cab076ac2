import { fam, type Pools } from "./kit";

/** German. */
export const pools: Pools = {
  plang: ["Python", "JavaScript", "Java", "Go", "TypeScript", "C#", "Kotlin", "Rust"],
  codetask: [
    ["einen String umdreht", "light"],
    ["prüft, ob eine Zahl gerade ist", "light"],
    ["das größte Element einer Liste zurückgibt", "light"],
    ["eine CSV-Datei einliest und eine Liste von Datensätzen zurückgibt", "standard"],
    ["eine IBAN prüft, inklusive Prüfziffer", "standard"],
    ["einen HTTP-Aufruf mit exponentiellem Backoff wiederholt", "standard"],
    ["einen LRU-Cache mit get und put in O(1) implementiert", "standard"],
    ["einen verteilten Ratenbegrenzer auf Redis baut, der auch mit mehreren Prozessen korrekt bleibt", "strong"],
    ["einen inkrementellen Parser für eine SQL-Teilmenge mit guter Fehlerbehandlung baut", "strong"],
  ],
  bugsym: [
    ["meine Schleife gibt das letzte Element zweimal aus", "light"],
    ["die Seite bleibt weiß, seit ich den Router eingebaut habe", "standard"],
    ["die Tests laufen einzeln durch, aber zusammen schlagen sie fehl", "standard"],
    ["unser Dienst verliert langsam Speicher und wird nach zwei Tagen vom OOM-Killer beendet", "strong"],
    ["die Migration sperrt die Bestelltabelle minutenlang, sie hat 200 Millionen Zeilen", "strong"],
  ],
  mathprob: [
    ["Wie viel sind 15 % von 80?", "light"],
    ["Löse 3x + 5 = 20.", "light"],
    ["Was ist 1024 geteilt durch 16?", "light"],
    ["Bestimme die Ableitung von x² · ln(x).", "standard"],
    ["Wie groß ist die Wahrscheinlichkeit, bei fünf Würfen mindestens zweimal Kopf zu werfen?", "standard"],
    ["Berechne die Eigenwerte der Matrix [[2, 1], [1, 2]].", "standard"],
    ["Beweise, dass es unendlich viele Primzahlen gibt.", "strong"],
    ["Beweise, dass die Wurzel aus 2 plus die Wurzel aus 3 irrational ist.", "strong"],
    ["Zeige, dass jede stetige additive Funktion auf den reellen Zahlen linear ist.", "strong"],
  ],
  decision: [
    ["ob wir unseren Monolithen in Microservices aufteilen sollen, bei einem Team von fünf Leuten", "strong"],
    ["mieten oder kaufen, wenn ich vielleicht in drei Jahren umziehe", "standard"],
    ["ein besser bezahltes Angebot mit langem Pendelweg annehmen oder bleiben", "standard"],
    ["PostgreSQL oder DynamoDB für eine mandantenfähige SaaS-Plattform", "strong"],
    ["Jahres- oder Monatsvertrag im Fitnessstudio, wenn ich zweimal die Woche gehe", "light"],
  ],
  topic: ["Herbstlaub", "einen Leuchtturmwärter", "Berlin im Regen", "einen alten Hund", "den ersten Schultag", "eine Buchhandlung, die schließt", "einen Drachen mit Höhenangst"],
  article: [
    "Der Stadtrat hat am Dienstag beschlossen, das Radwegenetz in den nächsten drei Jahren um 40 Kilometer zu erweitern. Befürworter verweisen darauf, dass die bestehenden Radwege die Unfälle um ein Drittel gesenkt haben; der Einzelhandelsverband fürchtet den Verlust von Parkplätzen. Nach einem Jahr soll der Plan überprüft werden.",
    "Protokoll Produktrunde. Teilnehmende: Anna, Felix, Jonas. Anna berichtet, dass das neue Onboarding die Aktivierung von 31 % auf 38 % erhöht. Felix meldet Darstellungsfehler auf kleinen Bildschirmen. Beschluss: Rollout am Montag, Felix behebt vorher das Layout. Jonas schreibt die Release Notes.",
    "Die neue Datenschutzrichtlinie verlangt, dass personenbezogene Marketingdaten nach 24 Monaten gelöscht werden, sofern keine erneute Einwilligung vorliegt. Steuerrelevante Daten müssen sieben Jahre aufbewahrt, aber von Marketingsystemen getrennt werden. Unternehmen müssen ihren Löschplan dokumentieren.",
  ],
  contact: [
    "Hallo zusammen, bitte schickt den unterschriebenen Vertrag bis zum 14. Juni an Thomas Becker (thomas.becker@beispiel.de). Die Rechnung RE-2291 über 4.300 € ist am 30. Juni fällig. Telefon: +49 30 1234567. Viele Grüße, Julia Wagner, Einkauf, Hauptstraße 12, München.",
    "Bestellung 77-1192 vom 3. März, Kunde Daniel Schmidt: 2 USB-C-Kabel (je 9,99 €) und ein Laptopständer (39 €). Lieferung an Lindenweg 18, 50667 Köln, voraussichtlich am 7. März.",
  ],
  tr_short: [["guten Morgen", "light"], ["wo ist der Bahnhof?", "light"], ["vielen Dank für deine Hilfe", "light"], ["das Meeting ist auf Donnerstag verschoben", "light"]],
  tolang: ["Englische", "Französische", "Spanische", "Italienische", "Japanische", "Polnische"],
  tolang2: ["Englisch", "Französisch", "Spanisch", "Italienisch", "Japanisch", "Polnisch"],
  fact: ["Was ist die Hauptstadt von Australien?", "Wer hat Faust geschrieben?", "Wann fiel die Berliner Mauer?", "Wie hoch ist die Zugspitze?", "Wie viele Bundesländer hat Deutschland?", "Wer hat die Relativitätstheorie entwickelt?", "Welcher Planet ist der Sonne am nächsten?"],
  greet: ["hallo", "moin!", "danke", "wie geht's?", "vielen Dank, hat geholfen", "kannst du mir helfen?", "ok, super"],
  advice: [["Wie schlafe ich schneller ein?", "light"], ["Tipps für mein erstes Vorstellungsgespräch?", "light"], ["Schreib eine höfliche Mail an meinen Vermieter, dass die Heizung kaputt ist.", "light"], ["Plane eine siebentägige Reise durch Japan im Herbst mit mittlerem Budget.", "standard"]],
  // Issue 15, fourth pass: new pasted texts for the fourth-pass families only (a new pool, so no
  // earlier prompt changes).
  note: [
    "Kundenbewertung, zwei Sterne: Der Wasserkocher sah toll aus, aber nach drei Wochen tropft der Deckel und das Gerät riecht beim Kochen nach Plastik. Der Kundendienst (Ticket 88412) bot nur einen Gutschein über 15 % statt einer Reparatur an. Gekauft am 9. Januar für 79 Euro.",
    "Aushang an alle Mieter der Hafenstraße 58: Der Aufzug wird vom 2. bis 20. Oktober erneuert. Bitte nutzt in dieser Zeit das hintere Treppenhaus. Pakete über 20 kg nimmt Herr Yilmaz im Raum 001 an. Fragen werktags von 9 bis 17 Uhr unter 030 5550 1234.",
  ],
};

export const families = [
  fam("de.code.write", ["code"], "slot", ["Schreib eine {plang}-Funktion, die {codetask}.", "Wie schreibe ich in {plang} Code, der {codetask}?", "Ich brauche ein {plang}-Skript, das {codetask}, bitte mit Tests."], 36),
  fam("de.code.bug", ["code"], "slot", ["{bugsym}. Woran kann das liegen?", "Hilf mir beim Debuggen: {bugsym}.", "Wir haben ein Problem in Produktion: {bugsym}. Wo fange ich an?"], 15),
  fam("de.code.nokw", ["code"], "slot", [
    ["Wie mache ich meinen letzten Commit rückgängig, ohne die Änderungen zu verlieren?", "light"],
    ["Entwirf das Datenbankschema für eine mandantenfähige Rechnungs-App mit eigenen Feldern und Änderungshistorie.", "strong"],
    ["Was ist der Unterschied zwischen einem Prozess und einem Thread?", "light"],
    ["```python\ndef avg(xs):\n    return sum(xs) / len(xs)\nprint(avg([]))\n```\nwarum stürzt das ab?", "light"],
  ], 4),
  fam("de.math", ["math"], "slot", ["{mathprob}", "Kannst du mir bei dieser Aufgabe helfen? {mathprob}", "{mathprob} Bitte mit Rechenweg."], 24),
  fam("de.reason", ["reasoning"], "slot", ["Hilf mir abzuwägen, {decision}. Was spricht wofür?", "Ich überlege, {decision}. Analysiere die Optionen und gib eine Empfehlung.", "Vor- und Nachteile: {decision}?"], 15),
  fam("de.reason.nokw", ["reasoning"], "slot", [
    ["Wenn die EZB die Zinsen nochmal erhöht, was passiert in den nächsten zwei Jahren mit Bauzinsen, Hauspreisen und Mieten? Erkläre die Wirkungskette.", "strong"],
    ["Unsere Anmeldungen sind letzten Monat um 20 % gefallen, der Traffic ist gleich geblieben. Welche Erklärungen gibt es und wie prüfen wir sie?", "strong"],
    ["Wenn heute Mittwoch ist, welcher Tag ist in 100 Tagen?", "light"],
    ["Drei Kisten sind mit Äpfel, Orangen und gemischt beschriftet, alle Etiketten sind falsch. Du darfst eine Frucht ziehen. Wie beschriftest du sie richtig?", "standard"],
  ], 4),
  fam("de.creative", ["creative"], "slot", [["Schreib ein Haiku über {topic}.", "light"], ["Schreib ein kurzes Gedicht über {topic}.", "light"], ["Schreib mir eine Kurzgeschichte von etwa 300 Wörtern über {topic}.", "standard"], ["Schreib das erste Kapitel eines Romans über {topic}, aus zwei Perspektiven, mit einer Wendung, die die erste Szene neu deutet.", "strong"], ["Denk dir einen Werbespruch für eine Bäckerei im Viertel aus.", "standard"]], 26),
  fam("de.extract", ["extraction"], "standard", ["Extrahiere Namen, E-Mail-Adressen und Telefonnummern aus diesem Text:\n\n{contact}", "Gib mir die Daten und Beträge daraus als JSON:\n{contact}", "Wer wird in diesem Text genannt und wie erreiche ich die Leute?\n\n{contact}", "Füll mir ein Formular mit Name, Firma, E-Mail und Frist aus diesem Text aus:\n{contact}", "Liste die Beschlüsse und Verantwortlichen aus diesem Protokoll auf:\n\n{article}"], 15),
  fam("de.sum", ["summarization"], "standard", ["Fasse das in drei Punkten zusammen:\n\n{article}", "Kurze Zusammenfassung bitte:\n{article}", "{article}\n\nWas ist die Kernaussage?", "Fasse die folgenden Dokumente für die Geschäftsführung zusammen:\n\n{article*3}"], 12),
  fam("de.sum.short", ["summarization"], "slot", [["Fass die Handlung von Faust in fünf Zeilen zusammen.", "light"], ["Gib mir eine kurze Zusammenfassung der Weimarer Republik.", "light"], ["Fass diese Meldung in einem Satz zusammen: Die Stadt baut 40 km neue Radwege in drei Jahren.", "light"], ["Fass Die Verwandlung von Kafka zusammen, ohne das Ende zu verraten.", "standard"], ["Fass in drei Punkten zusammen: Umsatz plus 12 %, Marge minus zwei Punkte wegen Cloudkosten.", "light"]], 5),
  fam("de.tr", ["translation"], "light", ["Übersetze „{tr_short}“ ins {tolang}.", "Was heißt „{tr_short}“ auf {tolang2}?", "Bitte auf {tolang2}: „{tr_short}“", "Ich brauche „{tr_short}“ auf {tolang2} für ein Schild."], 20),
  fam("de.tr.doc", ["translation"], "standard", ["Übersetze diesen Text förmlich ins {tolang}:\n\n{article}", "Bitte diese Mail ins {tolang} übertragen:\n{contact}"], 8),
  fam("de.simple", ["simple"], "light", ["{fact}", "{greet}"], 14),
  fam("de.general", [], "slot", ["{advice}"], 4),
  fam("de.mix", ["summarization", "translation"], "standard", ["Fasse den Text zusammen und übersetze die Zusammenfassung ins {tolang}:\n\n{article}"], 3),
  fam("de.turn", ["code"], "slot", ["Schreib eine {plang}-Funktion, die {codetask}. ||| Hier ist eine kommentierte Version. ||| und in Rust?", "Wie schreibe ich in {plang} Code, der {codetask}? ||| So geht's... ||| mit Tests bitte"], 8),
  fam("de.turn.thanks", ["simple"], "light", ["{mathprob} ||| Hier ist der Rechenweg. ||| danke!"], 3),
  // More request shapes (added for issue 15: extraction and translation phrased other ways, creative forms).
  fam("de.extract.more", ["extraction"], "standard", ["Welche Fristen stehen in dieser Mail?\n\n{contact}", "Gib mir nur die Rechnungsnummer und den Gesamtbetrag:\n{contact}", "Mach aus dieser Nachricht eine Tabellenzeile (wer, was, wie viel, wann):\n\n{contact}", "Schreib alle Zahlen aus diesem Text heraus und wofür sie stehen:\n\n{article}", "Markiere jede Firma und Organisation, die hier genannt wird:\n{article}"], 15),
  fam("de.tr.more", ["translation"], "slot", [["Wie schreibt man „{tr_short}“ auf {tolang}?", "light"], ["Bitte „{tr_short}“ ins {tolang} bringen.", "light"], ["Ich muss diese Nachricht an einen Kunden schicken, der nur {tolang} spricht:\n\n{contact}", "standard"], ["Fassung auf {tolang} von diesem Text, gleicher Ton:\n{article}", "standard"], ["Deutsch nach {tolang}: {tr_short}", "light"]], 15),
  fam("de.creative.more", ["creative"], "slot", [["Erfinde eine kurze Fabel über {topic}.", "light"], ["Schreib mir einen Liedtext über {topic}.", "standard"], ["Erzähl mir eine Gruselgeschichte über {topic}.", "standard"], ["Eine Kürzestgeschichte unter hundert Wörtern über {topic}.", "light"]], 12),
  // Issue 15, third pass: summaries, extractions and translations over pasted text asked in other words.
  fam("de.sum.third", ["summarization"], "standard", ["Gib mir die Kurzfassung davon:\n\n{article}", "{article}\n\nKannst du das in zwei Sätzen sagen?", "Ich habe keine Zeit, das zu lesen. Was steht drin?\n\n{article}", "Schreib einen kurzen Überblick über den folgenden Text für unseren Newsletter.\n\n{article}"], 16),
  fam("de.extract.third", ["extraction"], "standard", ["Welche Daten und Uhrzeiten kommen in dieser Nachricht vor? Liste sie auf.\n\n{contact}", "{contact}\n\nZieh mir nur die Namen und Telefonnummern da raus.", "Gib mir ein JSON mit Absender, Empfänger, Datum und Betrag aus dieser Mail:\n\n{contact}", "Notier jede Organisation und jeden Betrag aus dem Text unten.\n\n{article}"], 16),
  fam("de.tr.third", ["translation"], "slot", [["Kannst du das für unsere Partner ins {tolang} bringen?\n\n{article}", "standard"], ["{contact}\n\nSchick mir das bitte auf {tolang2} zurück.", "standard"], ["Ich brauche den folgenden Text auf {tolang2}, die Namen bitte unverändert:\n\n{contact}", "standard"], ["Hilf mir, das auf {tolang2} zu sagen: „{tr_short}“", "light"]], 16),
  // Issue 15, fourth pass (docs/routing.md, "The corpus"): summaries and extractions asked in general
  // shapes, and near-misses (reasoning about a text, a creative rewrite, a translation). Appended.
  fam("de.sum.fourth", ["summarization"], "standard", [
    "Was ist hier das Fazit?\n\n{note}",
    "{note}\n\nTL;DR?",
    "Fass den folgenden Text in höchstens 50 Wörtern zusammen.\n\n{note}",
    "{article}\n\nGib mir drei Stichpunkte, die ich ins Team-Chat kopieren kann.",
    "Nur die wichtigsten Punkte bitte:\n{note}",
    "Worum geht es hier, in einer Zeile?\n\n{note}",
    "Kannst du das auf einen Absatz kürzen, ohne Wichtiges wegzulassen?\n\n{article}",
    "{contact}\n\nFass mir das in einem Satz zusammen.",
  ], 20),
  fam("de.sum.inline", ["summarization"], "light", [
    "Kurzfassung bitte: Das Treffen ist auf Freitag verschoben, weil der Kunde verreist ist, und die Budgetrunde kommt erst nächsten Monat.",
    "Fass diese Bewertung knapp zusammen: tolle Kamera, der Akku ist mittags leer, die App ist umständlich, der Preis ist fair.",
    "In ein, zwei Sätzen: Worum ging es beim Wiener Kongress?",
  ], 3),
  fam("de.extract.fourth", ["extraction"], "standard", [
    "Gib mir ein JSON mit den Feldern Name, Datum, Betrag und Thema aus diesem Text:\n\n{note}",
    "{note}\n\nWelche Daten stehen da drin? Nur die Liste.",
    "Liste jeden Geldbetrag in diesem Text auf und wofür er ist:\n{note}",
    "Welche Personen werden hier genannt, und welche Rolle hat jede?\n\n{note}",
    "Such mir die Frist, die Telefonnummer und den Ansprechpartner heraus, sonst nichts:\n\n{note}",
    "{contact}\n\nTrag die Namen und Termine in eine Tabelle mit zwei Spalten ein.",
    "{note}\n\nWelche Nummern kommen vor, und wofür steht jede?",
    "Mach daraus strukturierte Daten (Schlüssel: wer, was, wann, wo):\n{note}",
  ], 20),
  fam("de.extract.inline", ["extraction"], "light", [
    "Zieh das Datum und die Uhrzeit aus: „Zahnarzt auf Mittwoch, 14. Mai, 9:40 verschoben.“",
    "Welche E-Mail-Adresse steht in diesem Satz? „Erreichbar ist Lena unter lena.k@mail.example oder am Empfang.“",
    "Ordne jede Aussage als Frage oder Feststellung ein: „Regnet es?“, „Ich bin früh gegangen.“, „Wo ist der Schlüssel?“",
  ], 3),
  fam("de.reason.text", ["reasoning"], "standard", [
    "{note}\n\nWird hier jemand unfair behandelt? Wäge beide Seiten ab.",
    "Folgt die Schlussfolgerung dieses Textes aus den Belegen? Begründe deine Antwort.\n\n{article}",
    "{note}\n\nWelche Risiken hat dieser Plan, die niemand erwähnt, und welches wiegt am schwersten?",
    "Lies das und sag mir, ob sich das Angebot lohnt, und warum:\n\n{note}",
  ], 8),
  fam("de.creative.rewrite", ["creative"], "standard", [
    "Mach aus diesem Text ein kurzes gereimtes Gedicht:\n\n{note}",
    "{note}\n\nSchreib das als dramatischen Kinotrailer-Sprechertext um.",
    "Erzähl den folgenden Text als Gutenachtgeschichte für ein fünfjähriges Kind nach:\n{article}",
  ], 8),
  fam("de.tr.fourth", ["translation"], "standard", [
    "{note}\n\nAuf {tolang2}, bitte.",
    "Gib mir diesen Text Wort für Wort auf {tolang2}:\n\n{note}",
    "Übersetze den Text unten ins {tolang} für unser Support-Team.\n\n{note}",
  ], 8),
  fam("de.sum.ask", ["summarization"], "standard", [
    "Kannst du die wichtigsten Erkenntnisse für meine Chefin zusammenfassen?\n\n{article}",
    "{note}\n\nErklär mir das kurz, wie einem Kollegen, der wenig Zeit hat.",
    "Skizziere die Hauptpunkte des folgenden Textes in ein paar Stichpunkten:\n{note}",
    "{article}\n\nWas kommt dabei unterm Strich heraus?",
  ], 12),
  fam("de.extract.ask", ["extraction"], "standard", [
    "Bis wann ist was fällig, und was kostet es? Antworte nur aus diesem Text.\n\n{contact}",
    "{note}\n\nListe die Aufgaben auf, mit wer jeweils zuständig ist.",
    "Welche Firmen und Organisationen kommen darin vor? Nur die Namen.\n\n{note}",
    "{contact}\n\nIch brauche daraus nur die Telefonnummern und E-Mail-Adressen.",
  ], 12),
  fam("de.sum.main", ["summarization"], "standard", [
    "Was ist die Grundidee dieses Textes?\n\n{note}",
    "{article}\n\nSteht da etwas Wichtiges drin, das ich wissen muss? Kurz bitte.",
    "Verdichte das auf höchstens 30 Wörter:\n{note}",
    "{note}\n\nWorum geht's, ganz knapp?",
  ], 12),
  fam("de.extract.find", ["extraction"], "standard", [
    "Finde jedes Datum und jede Frist im folgenden Text und gib sie im ISO-Format an:\n\n{note}",
    "{note}\n\nWie hoch ist der Gesamtbetrag, und wofür?",
    "Extrahiere die wichtigsten Fakten als JSON-Liste mit Feld und Wert:\n{contact}",
  ], 9),
  fam("de.general.reply", [], "standard", [
    "Schreib eine höfliche Antwort auf diese Nachricht:\n\n{note}",
    "{contact}\n\nEntwirf mir eine Antwort darauf, freundlich, aber kurz.",
  ], 4),
  fam("de.reason.text2", ["reasoning"], "standard", [
    "{note}\n\nIst das vernünftig? Denk es durch und sag mir, was du an meiner Stelle tun würdest.",
    "Welche Option ist laut diesem Text besser für uns, und warum?\n\n{article}",
  ], 6),
];
