import { fam, type Pools } from "./kit";

/** Italian. */
export const pools: Pools = {
  plang: ["Python", "JavaScript", "Java", "Go", "TypeScript", "C++", "PHP", "Rust"],
  codetask: [
    ["inverta una stringa", "light"],
    ["controlli se un numero è pari", "light"],
    ["restituisca il valore massimo di una lista", "light"],
    ["legga un file CSV e restituisca una lista di record", "standard"],
    ["validi un codice fiscale italiano", "standard"],
    ["ripeta una chiamata HTTP con backoff esponenziale", "standard"],
    ["implementi una cache LRU con get e put in O(1)", "standard"],
    ["implementi un rate limiter distribuito su Redis corretto con più processi", "strong"],
    ["implementi un B-tree con inserimento, cancellazione e ricerche per intervallo", "strong"],
  ],
  bugsym: [
    ["il mio ciclo stampa l'ultimo elemento due volte", "light"],
    ["la pagina diventa bianca dopo che ho aggiunto il router", "standard"],
    ["i test passano singolarmente ma falliscono tutti insieme", "standard"],
    ["il servizio perde memoria lentamente e dopo due giorni viene ucciso", "strong"],
    ["una race condition corrompe la cache circa una volta a settimana", "strong"],
  ],
  mathprob: [
    ["Quanto fa il 15% di 80?", "light"],
    ["Risolvi 3x + 5 = 20.", "light"],
    ["Quanto fa 144 diviso 12?", "light"],
    ["Calcola la derivata di x² · e^x.", "standard"],
    ["Qual è la probabilità di ottenere almeno due teste in cinque lanci?", "standard"],
    ["Calcola l'integrale di x · e^x.", "standard"],
    ["Dimostra che esistono infiniti numeri primi.", "strong"],
    ["Dimostra che ogni gruppo di ordine primo è ciclico.", "strong"],
    ["Dimostra che la serie armonica diverge.", "strong"],
  ],
  decision: [
    ["riscrivere il nostro monolite in microservizi con un team di cinque persone", "strong"],
    ["affittare o comprare casa se forse mi trasferisco fra tre anni", "standard"],
    ["accettare un lavoro pagato meglio ma con due ore di viaggio", "standard"],
    ["usare PostgreSQL o MongoDB per una piattaforma di prenotazioni con molti report", "strong"],
    ["abbonamento mensile o annuale in palestra se vado due volte a settimana", "light"],
  ],
  topic: ["le foglie d'autunno", "mia nonna", "Venezia sotto la pioggia", "un gatto detective", "il primo giorno di scuola", "un faro abbandonato", "un drago che ha paura del fuoco"],
  article: [
    "Il consiglio comunale ha approvato martedì l'ampliamento della rete ciclabile di 40 chilometri nei prossimi tre anni. I favorevoli sostengono che le piste esistenti abbiano ridotto gli incidenti di un terzo; l'associazione dei commercianti teme la perdita di parcheggi. Il piano sarà rivisto dopo il primo anno.",
    "Verbale della riunione di prodotto. Presenti: Giulia, Marco, Sara. Giulia riferisce che la nuova registrazione porta l'attivazione dal 31% al 38%. Marco segnala problemi di layout sugli schermi piccoli. Decisione: rilascio a tutti lunedì, Marco sistema prima il layout. Sara scrive le note di rilascio.",
    "L'incidente è iniziato alle 14:05, quando una modifica di configurazione ha ridotto il limite di connessioni del database principale da 500 a 50. Il tasso di errore del checkout ha raggiunto il 40% in quattro minuti. Il reperibile ha annullato la modifica alle 14:31; circa 3.100 ordini non sono andati a buon fine.",
  ],
  contact: [
    "Buongiorno, vi prego di inviare il contratto firmato a Marco Rossi (marco.rossi@esempio.it) entro il 14 giugno. La fattura FT-2291 di 4.300 € scade il 30 giugno. Il mio numero è +39 02 5550 1234. Cordiali saluti, Giulia Bianchi, Ufficio acquisti, Via Roma 12, Milano.",
    "Ordine 77-1192 del 3 marzo, cliente Davide Conti: 2 cavi USB-C (9,99 € l'uno) e un supporto per portatile (39 €). Consegna in Corso Vittorio Emanuele 18, Torino, prevista il 7 marzo.",
  ],
  tr_short: [["buongiorno", "light"], ["dov'è la stazione?", "light"], ["grazie mille per l'aiuto", "light"], ["la riunione è spostata a giovedì", "light"]],
  tolang: ["inglese", "spagnolo", "francese", "tedesco", "giapponese", "portoghese"],
  fact: ["Qual è la capitale dell'Australia?", "Chi ha scritto la Divina Commedia?", "In che anno è caduto il muro di Berlino?", "Quanto è alto il Monte Bianco?", "Quante regioni ha l'Italia?", "Chi ha dipinto la Gioconda?", "Qual è il fiume più lungo d'Italia?"],
  greet: ["ciao", "buongiorno!", "grazie", "come va?", "grazie mille, perfetto", "mi puoi aiutare?", "ok, va bene"],
  advice: [["Come posso addormentarmi più in fretta?", "light"], ["Consigli per il mio primo colloquio di lavoro?", "light"], ["Scrivi una mail gentile al padrone di casa per far riparare il riscaldamento.", "light"], ["Organizza un viaggio di sette giorni in Giappone in autunno con un budget medio.", "standard"]],
  // Issue 15, fourth pass: new pasted texts for the fourth-pass families only (a new pool, so no
  // earlier prompt changes).
  note: [
    "Recensione, due stelle: il bollitore sembrava bello, ma dopo tre settimane il coperchio perde acqua e l'apparecchio puzza di plastica bruciata. L'assistenza (pratica 88412) mi ha offerto solo un buono del 15% invece della riparazione. Comprato il 9 gennaio a 69 euro.",
    "Avviso ai condomini di via del Porto 58: l'ascensore verrà sostituito dal 2 al 20 ottobre. In quel periodo usate la scala di servizio. I pacchi oltre i 20 kg si possono lasciare al portiere, il signor Greco, nel locale 001. Domande: 02 5550 1234, nei giorni feriali dalle 9 alle 17.",
  ],
};

export const families = [
  fam("it.code.write", ["code"], "slot", ["Scrivi una funzione in {plang} che {codetask}.", "Come scrivo in {plang} del codice che {codetask}?", "Mi serve uno script {plang} che {codetask}, con qualche test."], 36),
  fam("it.code.bug", ["code"], "slot", ["{bugsym}. Da cosa può dipendere?", "Aiutami a fare debug: {bugsym}.", "Abbiamo un problema in produzione: {bugsym}. Da dove comincio?"], 15),
  fam("it.code.nokw", ["code"], "slot", [
    ["Come annullo l'ultimo commit senza perdere le modifiche?", "light"],
    ["Progetta lo schema del database per un'app di fatturazione multi-azienda con campi personalizzati e storico delle modifiche.", "strong"],
    ["Qual è la differenza tra un processo e un thread?", "light"],
    ["```js\nconst r = await fetch(url)\nconsole.log(r.json().name)\n```\nperché stampa undefined?", "light"],
  ], 4),
  fam("it.math", ["math"], "slot", ["{mathprob}", "Mi aiuti con questo esercizio? {mathprob}", "{mathprob} Mostra i passaggi."], 24),
  fam("it.reason", ["reasoning"], "slot", ["Aiutami a ragionare se {decision}. Quali sono i compromessi?", "Sto valutando se {decision}. Analizza le opzioni e consigliami.", "Pro e contro di {decision}?"], 15),
  fam("it.reason.nokw", ["reasoning"], "slot", [
    ["Se la BCE alza di nuovo i tassi, cosa succede a mutui, prezzi delle case e affitti nei prossimi due anni?", "strong"],
    ["Le iscrizioni sono calate del 20% il mese scorso ma il traffico è uguale. Quali spiegazioni possibili e come verificarle?", "strong"],
    ["Se oggi è mercoledì, che giorno sarà fra 100 giorni?", "light"],
  ], 3),
  fam("it.creative", ["creative"], "slot", [["Scrivi un haiku su {topic}.", "light"], ["Scrivi una breve poesia su {topic}.", "light"], ["Scrivimi un racconto di circa 300 parole su {topic}.", "standard"], ["Scrivi il primo capitolo di un romanzo su {topic}, a due voci, con un colpo di scena che cambia il senso della prima scena.", "strong"], ["Inventa uno slogan per un panificio di quartiere.", "standard"]], 26),
  fam("it.extract", ["extraction"], "standard", ["Estrai nomi, email e numeri di telefono da questo testo:\n\n{contact}", "Tirami fuori date e importi in JSON:\n{contact}", "Chi è citato in questo testo e come lo contatto?\n\n{contact}", "Compila una scheda con nome, azienda, email e scadenza da questo testo:\n{contact}", "Elenca le decisioni e i responsabili di questo verbale:\n\n{article}"], 15),
  fam("it.sum", ["summarization"], "standard", ["Riassumi in tre punti:\n\n{article}", "Fammi un riassunto veloce:\n{article}", "{article}\n\nQual è il punto principale?", "Riassumi i documenti seguenti per la direzione:\n\n{article*3}"], 12),
  fam("it.sum.short", ["summarization"], "slot", [["Riassumi la trama dei Promessi sposi in cinque righe.", "light"], ["Fammi un riassunto breve del Risorgimento.", "light"], ["Riassumi questa notizia in una frase: il comune amplia le piste ciclabili di 40 km in tre anni.", "light"], ["Riassumi Il nome della rosa senza svelare il finale.", "standard"], ["Riassumi in tre punti: il fatturato è cresciuto del 12%, ma il margine è sceso di due punti.", "light"]], 5),
  fam("it.tr", ["translation"], "light", ["Traduci \"{tr_short}\" in {tolang}.", "Come si dice \"{tr_short}\" in {tolang}?", "Mettimi questo in {tolang}: \"{tr_short}\"", "Mi serve \"{tr_short}\" in {tolang} per un cartello."], 20),
  fam("it.tr.doc", ["translation"], "standard", ["Traduci questo testo in {tolang} con un tono formale:\n\n{article}", "Metti questa mail in {tolang}:\n{contact}"], 8),
  fam("it.simple", ["simple"], "light", ["{fact}", "{greet}"], 14),
  fam("it.general", [], "slot", ["{advice}"], 4),
  fam("it.mix", ["summarization", "translation"], "standard", ["Riassumi questo testo e traduci il riassunto in {tolang}:\n\n{article}"], 3),
  fam("it.turn", ["code"], "slot", ["Scrivi una funzione in {plang} che {codetask}. ||| Ecco una versione commentata. ||| e in Rust?", "Come scrivo in {plang} del codice che {codetask}? ||| Si può fare così... ||| aggiungi i test"], 8),
  fam("it.turn.thanks", ["simple"], "light", ["{mathprob} ||| Ecco la soluzione passo per passo. ||| grazie!"], 3),
  // More request shapes (added for issue 15: extraction and translation phrased other ways, creative forms).
  fam("it.extract.more", ["extraction"], "standard", ["Quali scadenze ci sono in questa mail?\n\n{contact}", "Dammi solo il numero di fattura e l'importo totale:\n{contact}", "Trasforma questo messaggio in una riga di foglio di calcolo (chi, cosa, quanto, quando):\n\n{contact}", "Annota tutti i numeri di questo testo e a cosa si riferiscono:\n\n{article}", "Indica ogni azienda o organizzazione citata qui:\n{article}"], 15),
  fam("it.tr.more", ["translation"], "slot", [["Come si scrive \"{tr_short}\" in {tolang}?", "light"], ["Mettimi \"{tr_short}\" in {tolang}, per favore.", "light"], ["Devo mandare questo messaggio a un cliente che parla solo {tolang}:\n\n{contact}", "standard"], ["Versione in {tolang} di questo testo, stesso tono:\n{article}", "standard"], ["Dall'italiano al {tolang}: {tr_short}", "light"]], 15),
  fam("it.creative.more", ["creative"], "slot", [["Inventa una breve favola su {topic}.", "light"], ["Scrivimi il testo di una canzone su {topic}.", "standard"], ["Raccontami una storia di paura su {topic}.", "standard"], ["Un microracconto di meno di cento parole su {topic}.", "light"]], 12),
  // Issue 15, third pass: summaries, extractions and translations over pasted text asked in other words.
  fam("it.sum.third", ["summarization"], "standard", ["Dammi la versione breve di questo testo:\n\n{article}", "{article}\n\nMe lo dici in due frasi?", "Non ho tempo di leggerlo. Cosa dice?\n\n{article}", "Scrivi una breve panoramica del testo qui sotto per la newsletter.\n\n{article}"], 16),
  fam("it.extract.third", ["extraction"], "standard", ["Quali date e orari compaiono in questo messaggio? Fanne un elenco.\n\n{contact}", "{contact}\n\nTirami fuori solo i nomi e i numeri di telefono.", "Dammi un JSON con mittente, destinatario, data e importo da questa mail:\n\n{contact}", "Annota ogni organizzazione e ogni cifra del testo qui sotto.\n\n{article}"], 16),
  fam("it.tr.third", ["translation"], "slot", [["Puoi rendere questo testo in {tolang} per i nostri partner?\n\n{article}", "standard"], ["{contact}\n\nRimandamelo in {tolang}, per favore.", "standard"], ["Mi serve il testo seguente in {tolang}, senza cambiare i nomi:\n\n{contact}", "standard"], ["Aiutami a dire questo in {tolang}: \"{tr_short}\"", "light"]], 16),
  // Issue 15, fourth pass (docs/routing.md, "The corpus"): summaries and extractions asked in general
  // shapes, and near-misses (reasoning about a text, a creative rewrite, a translation). Appended.
  fam("it.sum.fourth", ["summarization"], "standard", [
    "Qual è la conclusione di tutto questo?\n\n{note}",
    "{note}\n\nIn breve?",
    "Riassumi il testo qui sotto in meno di 50 parole.\n\n{note}",
    "{article}\n\nDammi tre punti elenco da incollare nella chat del team.",
    "Solo i punti chiave, per favore:\n{note}",
    "Di cosa parla, in una riga?\n\n{note}",
    "Riesci a ridurlo a un paragrafo senza perdere niente di importante?\n\n{article}",
    "{contact}\n\nRiassumimelo in una frase sola.",
  ], 20),
  fam("it.sum.inline", ["summarization"], "light", [
    "Versione breve, per favore: la riunione slitta a venerdì perché il cliente è in viaggio, e la revisione del budget passa al mese prossimo.",
    "Riassumi questa recensione in poche parole: ottima fotocamera, la batteria non arriva a pranzo, l'app è macchinosa, il prezzo è giusto.",
    "In una o due frasi, di cosa si occupò il Congresso di Vienna?",
  ], 3),
  fam("it.extract.fourth", ["extraction"], "standard", [
    "Restituiscimi un JSON con i campi nome, data, importo e argomento da questo testo:\n\n{note}",
    "{note}\n\nQuali date ci sono? Solo l'elenco.",
    "Elenca ogni somma di denaro nel testo e a cosa si riferisce:\n{note}",
    "Quali persone sono nominate qui, e che ruolo ha ciascuna?\n\n{note}",
    "Trovami la scadenza, il telefono e la persona di riferimento, nient'altro:\n\n{note}",
    "{contact}\n\nMetti i nomi e le date in una tabella a due colonne.",
    "{note}\n\nQuali numeri di riferimento compaiono, e a cosa corrisponde ciascuno?",
    "Trasformalo in dati strutturati (chiavi: chi, cosa, quando, dove):\n{note}",
  ], 20),
  fam("it.extract.inline", ["extraction"], "light", [
    "Tira fuori la data e l'ora da: «Dentista spostato a mercoledì 14 maggio, 9:40.»",
    "Quale email compare in questa frase? «Lena si può contattare a lena.k@mail.example o alla reception.»",
    "Classifica ogni frase come domanda o affermazione: «Piove?», «Sono uscito presto.», «Dov'è la chiave?»",
  ], 3),
  fam("it.reason.text", ["reasoning"], "standard", [
    "{note}\n\nQualcuno viene trattato in modo ingiusto qui? Argomenta entrambe le posizioni.",
    "La conclusione di questo testo segue dalle prove che porta? Motiva la risposta.\n\n{article}",
    "{note}\n\nQuali rischi ha questo piano che nessuno cita, e quale pesa di più?",
    "Leggi e dimmi se conviene o no, e perché:\n\n{note}",
  ], 8),
  fam("it.creative.rewrite", ["creative"], "standard", [
    "Trasforma questo testo in una breve poesia in rima:\n\n{note}",
    "{note}\n\nRiscrivilo come la voce fuori campo di un trailer cinematografico drammatico.",
    "Racconta il testo seguente come una fiaba della buonanotte per un bambino di cinque anni:\n{article}",
  ], 8),
  fam("it.tr.fourth", ["translation"], "standard", [
    "{note}\n\nIn {tolang}, per favore.",
    "Dammi questo testo parola per parola in {tolang}:\n\n{note}",
    "Traduci il testo qui sotto in {tolang} per il team di assistenza.\n\n{note}",
  ], 8),
  fam("it.sum.ask", ["summarization"], "standard", [
    "Puoi ricapitolare le conclusioni principali di questo per la mia responsabile?\n\n{article}",
    "{note}\n\nSpiegamelo in breve, come a un collega di fretta.",
    "Delinea i punti principali del testo seguente in qualche punto elenco:\n{note}",
    "{article}\n\nIn parole semplici, cosa ne viene fuori?",
  ], 12),
  fam("it.extract.ask", ["extraction"], "standard", [
    "Cosa scade quando, e quanto costa? Rispondi solo in base a questo testo.\n\n{contact}",
    "{note}\n\nElenca le cose da fare con chi se ne occupa.",
    "Quali aziende e organizzazioni vengono citate? Solo i nomi.\n\n{note}",
    "{contact}\n\nDa lì mi servono solo i numeri di telefono e gli indirizzi email.",
  ], 12),
  fam("it.sum.main", ["summarization"], "standard", [
    "Qual è l'idea principale di questo testo?\n\n{note}",
    "{article}\n\nC'è qualcosa di importante che devo sapere? Breve, per favore.",
    "Condensalo in 30 parole al massimo:\n{note}",
    "{note}\n\nDi cosa si tratta, a grandi linee?",
  ], 12),
  fam("it.extract.find", ["extraction"], "standard", [
    "Trova ogni data e scadenza nel testo seguente e riportale in formato ISO:\n\n{note}",
    "{note}\n\nQual è l'importo totale, e a cosa si riferisce?",
    "Estrai i fatti principali come lista JSON di campo e valore:\n{contact}",
  ], 9),
  fam("it.general.reply", [], "standard", [
    "Scrivi una risposta cortese a questo messaggio:\n\n{note}",
    "{contact}\n\nButtami giù una risposta, gentile ma breve.",
  ], 4),
  fam("it.reason.text2", ["reasoning"], "standard", [
    "{note}\n\nTi sembra ragionevole? Ragionaci e dimmi cosa faresti al posto mio.",
    "In base a questo testo, quale opzione ci conviene di più, e perché?\n\n{article}",
  ], 6),
];
