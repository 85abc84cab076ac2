import { fam, type Pools } from "./kit";

/** French. */
export const pools: Pools = {
  plang: ["Python", "JavaScript", "Java", "Go", "TypeScript", "C++", "PHP", "Rust"],
  codetask: [
    ["inverse une chaîne de caractères", "light"],
    ["vérifie si un nombre est premier", "light"],
    ["convertit des degrés Celsius en Fahrenheit", "light"],
    ["lit un fichier CSV et renvoie une liste d'objets", "standard"],
    ["valide un numéro de TVA intracommunautaire", "standard"],
    ["fusionne deux listes triées sans utiliser sort", "standard"],
    ["pagine les résultats d'une API REST jusqu'à la dernière page", "standard"],
    ["implémente une file sans verrou multi-producteurs multi-consommateurs", "strong"],
    ["implémente l'élection de leader de Raft avec des tests de partition réseau", "strong"],
  ],
  bugsym: [
    ["ma boucle affiche le dernier élément deux fois", "light"],
    ["j'obtiens 'undefined' quand j'affiche le résultat de mon fetch", "standard"],
    ["le build Docker marche en local mais échoue en CI avec 'permission denied'", "standard"],
    ["deux threads se bloquent de temps en temps sous charge, seulement en production", "strong"],
    ["la latence p99 a doublé après la mise à jour de l'ORM alors que le CPU est stable", "strong"],
  ],
  mathprob: [
    ["Combien font 15 % de 80 ?", "light"],
    ["Résous 2x + 7 = 19.", "light"],
    ["Combien font 17 fois 23 ?", "light"],
    ["Calcule la dérivée de x³ sin(x).", "standard"],
    ["Quelle est la probabilité d'obtenir au moins deux piles en cinq lancers ?", "standard"],
    ["Calcule l'intégrale de 1/(x² + 1) entre 0 et 1.", "standard"],
    ["Démontre qu'il existe une infinité de nombres premiers.", "strong"],
    ["Montre que tout groupe d'ordre p² est abélien.", "strong"],
    ["Démontre que la série harmonique diverge et estime le nombre de termes pour dépasser 10.", "strong"],
  ],
  decision: [
    ["réécrire notre application PHP en Go ou continuer à l'améliorer", "strong"],
    ["louer ou acheter si je risque de déménager dans trois ans", "standard"],
    ["passer notre application mobile en React Native", "standard"],
    ["adopter l'event sourcing pour notre système de commandes avec une équipe de quatre", "strong"],
    ["prendre l'abonnement annuel ou mensuel à la salle de sport", "light"],
  ],
  topic: ["les feuilles d'automne", "un gardien de phare", "Paris sous la pluie", "un vieux chien", "le premier jour d'école", "une librairie qui ferme", "un dragon qui a peur du feu"],
  article: [
    "Le conseil municipal a voté mardi l'extension du réseau de pistes cyclables de 40 kilomètres sur trois ans. Les partisans affirment que les pistes existantes ont réduit les accidents d'un tiers, tandis que les commerçants craignent la perte de places de stationnement. Un bilan sera fait après la première année.",
    "Compte rendu de la réunion produit. Présents : Claire, Hugo, Nadia. Claire indique que la nouvelle inscription fait passer l'activation de 31 % à 38 %. Hugo signale des problèmes d'affichage sur petits écrans. Décision : déploiement lundi pour tous, Hugo corrige l'affichage avant. Nadia rédige la note de version.",
    "L'incident a commencé à 14 h 05 lorsqu'un changement de configuration a réduit la limite de connexions de la base principale de 500 à 50. Le taux d'erreur du paiement a atteint 40 % en quatre minutes. L'astreinte a annulé le changement à 14 h 31 ; environ 3 100 commandes ont échoué.",
  ],
  contact: [
    "Bonjour, merci d'envoyer le contrat signé à Marc Dubois (marc.dubois@exemple.fr) avant le 14 juin. La facture F-2291 de 4 300 € est due le 30 juin. Vous pouvez me joindre au 06 12 34 56 78. Cordialement, Sophie Martin, Achats, 12 rue de la Paix, Lyon.",
    "Commande 77-1192 passée le 3 mars par Julien Petit : 2 câbles USB-C (9,99 € pièce) et un support d'ordinateur (39 €). Livraison au 18 avenue Jean Jaurès, Toulouse, prévue le 7 mars.",
  ],
  tr_short: [["bonjour", "light"], ["où est la gare ?", "light"], ["merci beaucoup pour votre aide", "light"], ["la réunion est déplacée à jeudi", "light"]],
  tolang: ["anglais", "espagnol", "allemand", "italien", "japonais", "portugais"],
  fact: ["Quelle est la capitale du Canada ?", "Qui a écrit Les Misérables ?", "En quelle année a eu lieu la Révolution française ?", "Combien de pattes a une araignée ?", "Quelle est la hauteur de la tour Eiffel ?", "Qui a peint La Joconde ?", "Quel est le plus long fleuve de France ?"],
  greet: ["salut", "bonjour !", "merci", "ça va ?", "merci beaucoup, c'est parfait", "tu peux m'aider ?", "d'accord, super"],
  advice: [["Comment m'endormir plus vite ?", "light"], ["Des conseils pour mon premier entretien d'embauche ?", "light"], ["Écris un mail poli à mon propriétaire pour qu'il répare le chauffage.", "light"], ["Prépare un itinéraire de sept jours au Japon en automne avec un budget moyen.", "standard"]],
  // Issue 15, fourth pass: new pasted texts for the fourth-pass families only (a new pool, so no
  // earlier prompt changes).
  note: [
    "Avis client, deux étoiles : la bouilloire était belle, mais au bout de trois semaines le couvercle fuit et l'appareil sent le plastique brûlé. Le service client (ticket 88412) m'a seulement proposé un bon de 15 % au lieu d'une réparation. Achetée le 9 janvier pour 69 euros.",
    "Avis aux locataires du 58 rue du Port : l'ascenseur sera remplacé du 2 au 20 octobre. Pendant cette période, merci d'utiliser l'escalier de service. Les colis de plus de 20 kg peuvent être laissés à la gardienne, Mme Lefèvre, au local 001. Questions : 01 55 50 12 34, en semaine de 9 h à 17 h.",
  ],
};

export const families = [
  fam("fr.code.write", ["code"], "slot", ["Écris une fonction {plang} qui {codetask}.", "Comment écrire en {plang} un code qui {codetask} ?", "J'ai besoin d'un script {plang} qui {codetask}, avec des tests."], 36),
  fam("fr.code.bug", ["code"], "slot", ["{bugsym}. D'où ça peut venir et comment corriger ?", "Aide-moi à déboguer : {bugsym}.", "On a un souci en prod : {bugsym}. Par où commencer ?"], 15),
  fam("fr.code.nokw", ["code"], "slot", [
    ["Comment annuler mon dernier commit en gardant les modifications ?", "light"],
    ["Conçois un raccourcisseur d'URL qui tient 50 000 écritures par seconde, avec statistiques et domaines personnalisés.", "strong"],
    ["Comment centrer une div ?", "light"],
    ["```js\nfor (var i = 0; i < 3; i++) {\n  setTimeout(() => console.log(i), 0);\n}\n```\npourquoi ça affiche 3 3 3 ?", "standard"],
  ], 4),
  fam("fr.math", ["math"], "slot", ["{mathprob}", "Tu peux m'aider pour cet exercice ? {mathprob}", "{mathprob} Détaille les étapes."], 24),
  fam("fr.reason", ["reasoning"], "slot", ["Aide-moi à réfléchir : {decision}. Quels sont les compromis ?", "J'hésite à {decision}. Analyse les options et recommande-moi quelque chose.", "Avantages et inconvénients : {decision} ?"], 15),
  fam("fr.reason.nokw", ["reasoning"], "slot", [
    ["Si la BCE remonte encore ses taux, que se passe-t-il pour les crédits immobiliers, les prix et les loyers sur deux ans ?", "strong"],
    ["Un homme regarde un portrait et dit : je n'ai ni frère ni sœur, mais le père de cet homme est le fils de mon père. Qui est sur le portrait ?", "standard"],
    ["Si on est mercredi, quel jour serons-nous dans 100 jours ?", "light"],
    ["Critique cet argument : « les gens qui réussissent se lèvent tôt, donc se lever tôt fait réussir ».", "standard"],
  ], 4),
  fam("fr.creative", ["creative"], "slot", [["Écris un haïku sur {topic}.", "light"], ["Écris un court poème sur {topic}.", "light"], ["Écris-moi une nouvelle d'environ 300 mots sur {topic}.", "standard"], ["Écris le premier chapitre d'un roman sur {topic}, à deux voix, avec une révélation qui change le sens de la première scène.", "strong"], ["Trouve un slogan pour une boulangerie de quartier.", "standard"]], 26),
  fam("fr.extract", ["extraction"], "standard", ["Extrais les noms, e-mails et numéros de téléphone de ce texte :\n\n{contact}", "Donne-moi les dates et montants en JSON :\n{contact}", "Qui est mentionné dans ce texte et comment les joindre ?\n\n{contact}", "Remplis une fiche nom, société, e-mail, échéance à partir de ceci :\n{contact}", "Liste les décisions et les responsables de ce compte rendu :\n\n{article}"], 15),
  fam("fr.sum", ["summarization"], "standard", ["Résume ceci en trois points :\n\n{article}", "Fais-moi un résumé rapide :\n{article}", "{article}\n\nC'est quoi l'essentiel ?", "Résume les documents suivants pour la direction :\n\n{article*3}"], 12),
  fam("fr.sum.short", ["summarization"], "slot", [["Résume l'intrigue des Misérables en cinq lignes.", "light"], ["Fais-moi un résumé court de la Révolution française.", "light"], ["Résume cette info en une phrase : la mairie étend les pistes cyclables de 40 km en trois ans.", "light"], ["Résume L'Étranger de Camus sans dévoiler la fin.", "standard"], ["Résume en trois points : le chiffre d'affaires a progressé de 12 %, mais la marge a baissé de deux points.", "light"]], 5),
  fam("fr.tr", ["translation"], "light", ["Traduis « {tr_short} » en {tolang}.", "Comment dit-on « {tr_short} » en {tolang} ?", "Mets-moi ça en {tolang} : « {tr_short} »", "J'ai besoin de « {tr_short} » en {tolang} pour une affiche."], 20),
  fam("fr.tr.doc", ["translation"], "standard", ["Traduis ce texte en {tolang}, sur un ton formel :\n\n{article}", "Mets ce mail en {tolang} :\n{contact}"], 8),
  fam("fr.simple", ["simple"], "light", ["{fact}", "{greet}"], 14),
  fam("fr.general", [], "slot", ["{advice}"], 4),
  fam("fr.mix", ["summarization", "translation"], "standard", ["Résume ce texte et traduis le résumé en {tolang} :\n\n{article}"], 3),
  fam("fr.turn", ["code"], "slot", ["Écris une fonction {plang} qui {codetask}. ||| Voici une version commentée. ||| et en Rust ?", "Comment écrire en {plang} un code qui {codetask} ? ||| On peut faire ainsi... ||| ajoute des tests"], 8),
  fam("fr.turn.thanks", ["simple"], "light", ["{mathprob} ||| Voici la solution étape par étape. ||| merci !"], 3),
  // More request shapes (added for issue 15: extraction and translation phrased other ways, creative forms).
  fam("fr.extract.more", ["extraction"], "standard", ["Quelles sont les échéances mentionnées dans ce mail ?\n\n{contact}", "Donne-moi juste le numéro de facture et le montant total :\n{contact}", "Transforme ce message en une ligne de tableur (qui, quoi, combien, quand) :\n\n{contact}", "Relève tous les chiffres de ce texte et ce qu'ils désignent :\n\n{article}", "Repère chaque entreprise ou organisation citée ici :\n{article}"], 15),
  fam("fr.tr.more", ["translation"], "slot", [["Comment on écrit « {tr_short} » en {tolang} ?", "light"], ["Mets-moi « {tr_short} » en {tolang}, s'il te plaît.", "light"], ["Je dois envoyer ce message à un client qui ne parle que {tolang} :\n\n{contact}", "standard"], ["Version en {tolang} de ce texte, même ton :\n{article}", "standard"], ["Du français vers l'{tolang} : {tr_short}", "light"]], 15),
  fam("fr.creative.more", ["creative"], "slot", [["Invente une courte fable sur {topic}.", "light"], ["Écris les paroles d'une chanson sur {topic}.", "standard"], ["Raconte-moi une histoire qui fait peur sur {topic}.", "standard"], ["Une micro-nouvelle de moins de cent mots sur {topic}.", "light"]], 12),
  // Issue 15, third pass: summaries, extractions and translations over pasted text asked in other words.
  fam("fr.sum.third", ["summarization"], "standard", ["Donne-moi la version courte de ce texte :\n\n{article}", "{article}\n\nTu peux me dire ça en deux phrases ?", "Je n'ai pas le temps de tout lire. Qu'est-ce que ça dit ?\n\n{article}", "Rédige un bref aperçu du texte ci-dessous pour la newsletter.\n\n{article}"], 16),
  fam("fr.extract.third", ["extraction"], "standard", ["Quelles dates et heures apparaissent dans ce message ? Fais-en la liste.\n\n{contact}", "{contact}\n\nSors-moi seulement les noms et les numéros de téléphone.", "Donne-moi un JSON avec expéditeur, destinataire, date et montant à partir de ce mail :\n\n{contact}", "Relève chaque organisation et chaque montant du texte ci-dessous.\n\n{article}"], 16),
  fam("fr.tr.third", ["translation"], "slot", [["Tu peux passer ce texte en {tolang} pour nos partenaires ?\n\n{article}", "standard"], ["{contact}\n\nRenvoie-moi ça en {tolang}, s'il te plaît.", "standard"], ["J'ai besoin de ce texte en {tolang}, sans toucher aux noms :\n\n{contact}", "standard"], ["Aide-moi à dire ça en {tolang} : « {tr_short} »", "light"]], 16),
  // Issue 15, fourth pass (docs/routing.md, "The corpus"): summaries and extractions asked in general
  // shapes, and near-misses (reasoning about a text, a creative rewrite, a translation). Appended.
  fam("fr.sum.fourth", ["summarization"], "standard", [
    "Quelle est la conclusion de tout ça ?\n\n{note}",
    "{note}\n\nTL;DR ?",
    "Résume le texte ci-dessous en moins de 50 mots.\n\n{note}",
    "{article}\n\nDonne-moi trois puces à coller dans le chat de l'équipe.",
    "Juste les points clés, s'il te plaît :\n{note}",
    "De quoi ça parle, en une ligne ?\n\n{note}",
    "Tu peux ramener ça à un paragraphe sans rien perdre d'important ?\n\n{article}",
    "{contact}\n\nRésume-moi ça en une phrase.",
  ], 20),
  fam("fr.sum.inline", ["summarization"], "light", [
    "Version courte, s'il te plaît : la réunion passe à vendredi parce que le client est en déplacement, et la revue du budget est repoussée au mois prochain.",
    "Résume cet avis en quelques mots : super appareil photo, la batterie ne tient pas jusqu'à midi, l'appli est lourde, le prix est correct.",
    "En une ou deux phrases, de quoi a traité le congrès de Vienne ?",
  ], 3),
  fam("fr.extract.fourth", ["extraction"], "standard", [
    "Renvoie un JSON avec les champs nom, date, montant et sujet à partir de ce texte :\n\n{note}",
    "{note}\n\nQuelles dates y figurent ? Juste la liste.",
    "Liste chaque somme d'argent du texte et à quoi elle correspond :\n{note}",
    "Quelles personnes sont citées ici, et quel rôle a chacune ?\n\n{note}",
    "Trouve-moi le délai, le téléphone et la personne à contacter, rien d'autre :\n\n{note}",
    "{contact}\n\nMets les noms et les dates dans un tableau à deux colonnes.",
    "{note}\n\nQuels numéros de référence apparaissent, et à quoi correspond chacun ?",
    "Transforme ça en données structurées (clés : qui, quoi, quand, où) :\n{note}",
  ], 20),
  fam("fr.extract.inline", ["extraction"], "light", [
    "Sors la date et l'heure de : « Dentiste déplacé au mercredi 14 mai, 9 h 40. »",
    "Quelle adresse e-mail figure dans cette phrase ? « On peut joindre Léna à lena.k@mail.example ou à l'accueil. »",
    "Classe chaque phrase comme question ou affirmation : « Il pleut ? », « Je suis parti tôt. », « Où est la clé ? »",
  ], 3),
  fam("fr.reason.text", ["reasoning"], "standard", [
    "{note}\n\nQuelqu'un est-il traité injustement ici ? Défends les deux points de vue.",
    "La conclusion de ce texte découle-t-elle de ses preuves ? Justifie ta réponse.\n\n{article}",
    "{note}\n\nQuels risques de ce plan personne ne mentionne, et lequel compte le plus ?",
    "Lis ça et dis-moi si ça vaut le coup ou non, et pourquoi :\n\n{note}",
  ], 8),
  fam("fr.creative.rewrite", ["creative"], "standard", [
    "Fais de ce texte un court poème qui rime :\n\n{note}",
    "{note}\n\nRéécris ça comme la voix off d'une bande-annonce de film dramatique.",
    "Raconte le texte suivant comme une histoire du soir pour un enfant de cinq ans :\n{article}",
  ], 8),
  fam("fr.tr.fourth", ["translation"], "standard", [
    "{note}\n\nEn {tolang}, s'il te plaît.",
    "Donne-moi ce texte mot à mot en {tolang} :\n\n{note}",
    "Traduis le texte ci-dessous en {tolang} pour l'équipe du support.\n\n{note}",
  ], 8),
  fam("fr.sum.ask", ["summarization"], "standard", [
    "Tu peux récapituler les principaux enseignements de ceci pour ma cheffe ?\n\n{article}",
    "{note}\n\nExplique-moi ça brièvement, comme à un collègue pressé.",
    "Dégage les grandes lignes du texte suivant en quelques puces :\n{note}",
    "{article}\n\nQu'est-ce qu'il faut en retenir, en termes simples ?",
  ], 12),
  fam("fr.extract.ask", ["extraction"], "standard", [
    "Qu'est-ce qui est dû quand, et combien ça coûte ? Réponds seulement à partir de ce texte.\n\n{contact}",
    "{note}\n\nListe les tâches à faire avec la personne responsable de chacune.",
    "Quelles entreprises et organisations sont mentionnées ? Seulement les noms.\n\n{note}",
    "{contact}\n\nJ'ai juste besoin des numéros de téléphone et des adresses e-mail.",
  ], 12),
  fam("fr.sum.main", ["summarization"], "standard", [
    "Quelle est l'idée principale de ce texte ?\n\n{note}",
    "{article}\n\nIl y a quelque chose d'important là-dedans que je dois savoir ? Fais court.",
    "Condense ça en 30 mots maximum :\n{note}",
    "{note}\n\nÇa parle de quoi, en gros ?",
  ], 12),
  fam("fr.extract.find", ["extraction"], "standard", [
    "Trouve chaque date et chaque échéance dans le texte suivant et donne-les au format ISO :\n\n{note}",
    "{note}\n\nQuel est le montant total, et pour quoi ?",
    "Extrais les faits clés sous forme de liste JSON champ et valeur :\n{contact}",
  ], 9),
  fam("fr.general.reply", [], "standard", [
    "Écris une réponse polie à ce message :\n\n{note}",
    "{contact}\n\nRédige-moi une réponse à ça, aimable mais courte.",
  ], 4),
  fam("fr.reason.text2", ["reasoning"], "standard", [
    "{note}\n\nC'est raisonnable, d'après toi ? Réfléchis et dis-moi ce que tu ferais à ma place.",
    "D'après ce texte, quelle option est la meilleure pour nous, et pourquoi ?\n\n{article}",
  ], 6),
];
