import { fam, type Pools } from "./kit";

/** Spanish. */
export const pools: Pools = {
  plang: ["Python", "JavaScript", "Java", "Go", "TypeScript", "C#", "PHP", "Rust"],
  codetask: [
    ["invierta una cadena", "light"],
    ["diga si un año es bisiesto", "light"],
    ["sume los números pares de una lista", "light"],
    ["lea un archivo CSV y devuelva una lista de diccionarios", "standard"],
    ["valide un NIF español, con la letra de control", "standard"],
    ["reintente una petición HTTP con espera exponencial", "standard"],
    ["implemente una caché LRU con get y put en O(1)", "standard"],
    ["implemente un limitador de peticiones distribuido sobre Redis que sea correcto con varios procesos", "strong"],
    ["implemente un árbol B con inserción, borrado y búsqueda por rangos", "strong"],
  ],
  bugsym: [
    ["mi bucle imprime el último elemento dos veces", "light"],
    ["la página se queda en blanco después de añadir el enrutador", "standard"],
    ["los tests pasan uno a uno pero fallan todos juntos", "standard"],
    ["el servicio pierde memoria poco a poco y a los dos días lo mata el OOM killer", "strong"],
    ["hay una condición de carrera que corrompe la caché una vez por semana", "strong"],
  ],
  mathprob: [
    ["¿Cuánto es el 15 % de 80?", "light"],
    ["Resuelve 3x + 5 = 20.", "light"],
    ["¿Cuánto es 144 entre 12?", "light"],
    ["Calcula la derivada de x^2 · e^x.", "standard"],
    ["¿Cuál es la probabilidad de sacar al menos un seis en cuatro tiradas de un dado?", "standard"],
    ["Resuelve el sistema 2x + y = 5, x - y = 1.", "standard"],
    ["Demuestra que la raíz cuadrada de 2 es irracional.", "strong"],
    ["Demuestra por inducción que la suma de los n primeros cubos es el cuadrado de la suma de los n primeros naturales.", "strong"],
    ["Demuestra que todo grupo de orden primo es cíclico.", "strong"],
  ],
  decision: [
    ["si migrar nuestro monolito a microservicios con un equipo de cinco personas", "strong"],
    ["alquilar o comprar piso si quizá me mude en tres años", "standard"],
    ["aceptar un trabajo mejor pagado pero con dos horas de trayecto", "standard"],
    ["usar PostgreSQL o MongoDB para una plataforma de reservas con muchos informes", "strong"],
    ["pagar el gimnasio mensual o anual si voy dos veces por semana", "light"],
  ],
  topic: ["el mar en invierno", "mi abuela", "una ciudad bajo la lluvia", "un gato detective", "el primer día de trabajo", "un faro abandonado", "el verano en el pueblo"],
  article: [
    "El ayuntamiento aprobó ayer ampliar la red de carriles bici en 40 kilómetros durante los próximos tres años. Los partidarios señalan que los carriles actuales han reducido los accidentes en un tercio; la asociación de comerciantes teme perder plazas de aparcamiento. El plan se revisará al cabo de un año y los datos de tráfico se publicarán cada trimestre.",
    "Los resultados del tercer trimestre fueron dispares: los ingresos crecieron un 12 % hasta 48 millones, sobre todo por los clientes empresariales, pero el margen bruto cayó dos puntos por el coste de la nube. La tasa de bajas mensual subió del 3,1 % al 3,8 %. Congelamos las contrataciones en marketing y renegociamos el contrato de alojamiento.",
    "Acta de la reunión de producto. Asistentes: Lucía, Pablo, Marta. Lucía informó de que el nuevo proceso de alta sube la activación del 31 % al 38 %. Pablo advirtió de fallos en pantallas pequeñas. Decisión: lanzarlo a todos el lunes, Pablo corrige antes el diseño. Marta redacta la nota de versión.",
  ],
  contact: [
    "Hola, por favor enviad el contrato firmado a Javier Ortega (javier.ortega@ejemplo.es) antes del 14 de junio. La factura F-2291 de 4.300 € vence el 30 de junio. Mi teléfono es +34 612 345 678. Un saludo, Carmen Ruiz, Compras, Calle Mayor 12, Madrid.",
    "Pedido 77-1192 realizado el 3 de marzo por Daniel Gómez: 2 cables USB-C (9,99 € cada uno) y un soporte para portátil (39 €). Envío a Avenida de la Constitución 18, Sevilla. Entrega prevista el 7 de marzo.",
  ],
  tr_short: [["buenos días", "light"], ["¿dónde está la estación de tren?", "light"], ["muchas gracias por tu ayuda", "light"], ["la reunión se ha movido al jueves", "light"]],
  tolang: ["inglés", "francés", "alemán", "italiano", "portugués", "japonés"],
  fact: ["¿Cuál es la capital de Australia?", "¿Quién escribió Cien años de soledad?", "¿En qué año cayó el muro de Berlín?", "¿Cuántos huesos tiene el cuerpo humano?", "¿Qué idioma se habla en Brasil?", "¿A qué temperatura hierve el agua?", "¿Quién pintó Las Meninas?", "¿Cuál es el río más largo de España?"],
  greet: ["hola", "¡buenas!", "gracias", "¿qué tal?", "muchas gracias, me ha servido", "hola, ¿me ayudas?", "vale, perfecto"],
  advice: [["¿Cómo puedo dormirme más rápido?", "light"], ["Dame consejos para mi primera entrevista de trabajo.", "light"], ["Escribe un correo educado a mi casero pidiendo que arregle la calefacción.", "light"], ["Planifica un viaje de siete días por Japón en otoño con presupuesto medio.", "standard"], ["¿Cómo le pido un aumento a mi jefe?", "standard"]],
  // Issue 15, fourth pass: new pasted texts for the fourth-pass families only (a new pool, so no
  // earlier prompt changes).
  note: [
    "Reseña, dos estrellas: la cafetera parecía buena, pero a las tres semanas la tapa empezó a gotear y el motor huele a quemado después de un minuto. Atención al cliente (incidencia 88412) solo ofreció un vale del 15 % en lugar de repararla. La compré el 9 de enero por 89 euros.",
    "Aviso a los vecinos de la calle del Puerto 58: el ascensor se cambiará del 2 al 20 de octubre. Durante esas fechas usad la escalera trasera. Los paquetes de más de 20 kg los recoge el conserje, el señor Ortega, en el local 001. Dudas: 91 555 0123, de lunes a viernes de 9 a 17 h.",
  ],
};

export const families = [
  fam("es.code.write", ["code"], "slot", ["Escribe una función en {plang} que {codetask}.", "¿Cómo hago en {plang} algo que {codetask}?", "Necesito código {plang} que {codetask}, con un par de tests."], 36),
  fam("es.code.bug", ["code"], "slot", ["{bugsym}. ¿Qué puede ser y cómo lo arreglo?", "Ayúdame a depurar esto: {bugsym}.", "Tenemos un problema en producción: {bugsym}. ¿Por dónde empiezo?"], 15),
  fam("es.code.nokw", ["code"], "slot", [
    ["¿Cómo deshago el último commit sin perder los cambios?", "light"],
    ["El botón de mi web no hace nada en Safari pero sí en Chrome.", "standard"],
    ["Diseña el esquema de base de datos de una aplicación de facturación multiempresa con campos personalizados y auditoría.", "strong"],
    ["¿Cómo centro un div?", "light"],
    ["Traceback (most recent call last):\n  File \"app.py\", line 12, in <module>\n    total = datos['items']\nKeyError: 'items'\n\n¿qué significa este error?", "light"],
  ], 5),
  fam("es.math", ["math"], "slot", ["{mathprob}", "¿Me ayudas con este ejercicio? {mathprob}", "{mathprob} Explica los pasos."], 24),
  fam("es.reason", ["reasoning"], "slot", ["Ayúdame a pensar {decision}. ¿Qué ventajas e inconvenientes hay?", "Estoy dudando {decision}. Analiza las opciones y recomiéndame una.", "¿Pros y contras de {decision}?"], 15),
  fam("es.reason.nokw", ["reasoning"], "slot", [
    ["Si el banco central sube otra vez los tipos, ¿qué pasa con las hipotecas, el precio de la vivienda y los alquileres en dos años? Explica la cadena de efectos.", "strong"],
    ["Las altas cayeron un 20 % el mes pasado aunque el tráfico es el mismo. ¿Qué explicaciones hay y cómo comprobaría cada una?", "strong"],
    ["Si hoy es miércoles, ¿qué día será dentro de 100 días?", "light"],
    ["Tres cajas tienen etiquetas de manzanas, naranjas y mezcla, y todas están mal. Sacando una sola fruta, ¿cómo las reetiquetas?", "standard"],
  ], 4),
  fam("es.creative", ["creative"], "slot", [["Escribe un haiku sobre {topic}.", "light"], ["Escribe un poema corto sobre {topic}.", "light"], ["Escríbeme un cuento de unas 300 palabras sobre {topic}.", "standard"], ["Escribe el primer capítulo de una novela sobre {topic}, con dos narradores y un giro final que cambie el sentido de la primera escena.", "strong"], ["Inventa un eslogan para una panadería de barrio.", "standard"]], 26),
  fam("es.extract", ["extraction"], "standard", ["Extrae los nombres, correos y teléfonos de este texto:\n\n{contact}", "Saca las fechas e importes de esto en JSON:\n{contact}", "¿Quién aparece en este texto y cómo lo contacto?\n\n{contact}", "Rellena una ficha con nombre, empresa, correo y fecha límite a partir de esto:\n{contact}", "Haz una lista de las decisiones y responsables de esta acta:\n\n{article}"], 15),
  fam("es.sum", ["summarization"], "standard", ["Resume esto en tres puntos:\n\n{article}", "Hazme un resumen breve:\n{article}", "{article}\n\n¿Cuál es la idea principal?", "Resume los siguientes documentos para la dirección:\n\n{article*3}"], 12),
  fam("es.sum.short", ["summarization"], "slot", [["Resume la trama de Don Quijote en cinco líneas.", "light"], ["Hazme un resumen corto de la Guerra Civil española.", "light"], ["Resume esta noticia en una frase: el ayuntamiento amplía los carriles bici 40 km en tres años.", "light"], ["Haz un resumen de Cien años de soledad sin destripar el final.", "standard"], ["Resume en tres puntos: la empresa creció un 12 %, pero el margen bajó dos puntos por la nube.", "light"]], 5),
  fam("es.tr", ["translation"], "light", ["Traduce «{tr_short}» al {tolang}.", "¿Cómo se dice «{tr_short}» en {tolang}?", "Pásame esto al {tolang}: «{tr_short}»", "Necesito «{tr_short}» en {tolang} para un cartel."], 20),
  fam("es.tr.doc", ["translation"], "standard", ["Traduce este texto al {tolang} con un tono formal:\n\n{article}", "Pasa este correo al {tolang}:\n{contact}"], 8),
  fam("es.simple", ["simple"], "light", ["{fact}", "{greet}"], 14),
  fam("es.general", [], "slot", ["{advice}"], 5),
  fam("es.mix", ["summarization", "translation"], "standard", ["Resume esto y traduce el resumen al {tolang}:\n\n{article}"], 3),
  fam("es.turn", ["code"], "slot", ["Escribe una función en {plang} que {codetask}. ||| Aquí tienes una versión con comentarios. ||| ¿y en Rust?", "¿Cómo hago en {plang} algo que {codetask}? ||| Puedes hacerlo así... ||| añade tests"], 8),
  fam("es.turn.thanks", ["simple"], "light", ["{mathprob} ||| La solución está arriba, paso a paso. ||| ¡gracias!"], 3),
  // More request shapes (added for issue 15: extraction and translation phrased other ways, creative forms).
  fam("es.extract.more", ["extraction"], "standard", ["¿Qué fechas límite aparecen en este correo?\n\n{contact}", "Dame solo el número de factura y el importe total:\n{contact}", "Convierte este mensaje en una fila de hoja de cálculo (quién, qué, cuánto, cuándo):\n\n{contact}", "Apunta todas las cifras de este texto y a qué se refieren:\n\n{article}", "Señala cada empresa u organización que se menciona aquí:\n{article}"], 15),
  fam("es.tr.more", ["translation"], "slot", [["¿Cómo se escribe «{tr_short}» en {tolang}?", "light"], ["Ponme «{tr_short}» en {tolang}, por favor.", "light"], ["Quiero mandar este mensaje a un cliente que solo habla {tolang}:\n\n{contact}", "standard"], ["Versión en {tolang} de este texto, mismo tono:\n{article}", "standard"], ["Del español al {tolang}: {tr_short}", "light"]], 15),
  fam("es.creative.more", ["creative"], "slot", [["Inventa una fábula corta sobre {topic}.", "light"], ["Escríbeme la letra de una canción sobre {topic}.", "standard"], ["Cuéntame una historia de miedo sobre {topic}.", "standard"], ["Un microrrelato de menos de cien palabras sobre {topic}.", "light"]], 12),
  // Issue 15, third pass: summaries, extractions and translations over pasted text asked in other words.
  fam("es.sum.third", ["summarization"], "standard", ["Dame la versión corta de esto:\n\n{article}", "{article}\n\n¿Me lo dices en dos frases?", "No tengo tiempo de leerlo. ¿Qué dice?\n\n{article}", "Redacta un panorama breve del texto de abajo para el boletín.\n\n{article}"], 16),
  fam("es.extract.third", ["extraction"], "standard", ["¿Qué fechas y horas aparecen en este mensaje? Haz una lista.\n\n{contact}", "{contact}\n\nSácame solo los nombres y los teléfonos.", "Dame un JSON con remitente, destinatario, fecha e importe de este correo:\n\n{contact}", "Anota cada organización y cada cifra del texto siguiente.\n\n{article}"], 16),
  fam("es.tr.third", ["translation"], "slot", [["¿Puedes pasar esto al {tolang} para nuestros socios?\n\n{article}", "standard"], ["{contact}\n\nDevuélvemelo en {tolang}, por favor.", "standard"], ["Necesito lo siguiente en {tolang}, sin cambiar los nombres:\n\n{contact}", "standard"], ["Ayúdame a decir esto en {tolang}: «{tr_short}»", "light"]], 16),
  // Issue 15, fourth pass (docs/routing.md, "The corpus"): summaries and extractions asked in general
  // shapes, and near-misses (reasoning about a text, a creative rewrite, a translation). Appended.
  fam("es.sum.fourth", ["summarization"], "standard", [
    "¿Cuál es la conclusión de esto?\n\n{note}",
    "{note}\n\n¿Resumen rápido?",
    "Resume el texto de abajo en menos de 50 palabras.\n\n{note}",
    "{article}\n\nDame tres viñetas que pueda pegar en el chat del equipo.",
    "Solo los puntos clave, por favor:\n{note}",
    "¿De qué va esto, en una línea?\n\n{note}",
    "¿Puedes dejar esto en un párrafo sin perder nada importante?\n\n{article}",
    "{contact}\n\nResúmemelo en una sola oración.",
  ], 20),
  fam("es.sum.inline", ["summarization"], "light", [
    "Versión corta, por favor: la reunión pasa al viernes porque el cliente está de viaje y la revisión del presupuesto queda para el mes que viene.",
    "Resume esta reseña en pocas palabras: muy buena cámara, la batería no llega a mediodía, la app es torpe, el precio es justo.",
    "En una o dos frases, ¿de qué trató el Congreso de Viena?",
  ], 3),
  fam("es.extract.fourth", ["extraction"], "standard", [
    "Devuélveme un JSON con los campos nombre, fecha, importe y tema a partir de este texto:\n\n{note}",
    "{note}\n\n¿Qué fechas aparecen ahí? Solo la lista.",
    "Enumera cada cantidad de dinero del texto y para qué es:\n{note}",
    "¿Qué personas se nombran aquí y qué papel tiene cada una?\n\n{note}",
    "Búscame el plazo, el teléfono y la persona de contacto, nada más:\n\n{note}",
    "{contact}\n\nPasa los nombres y las fechas a una tabla de dos columnas.",
    "{note}\n\n¿Qué números de referencia salen y a qué corresponde cada uno?",
    "Conviértelo en datos estructurados (claves: quién, qué, cuándo, dónde):\n{note}",
  ], 20),
  fam("es.extract.inline", ["extraction"], "light", [
    "Saca la fecha y la hora de: «Dentista cambiado al miércoles 14 de mayo, 9:40».",
    "¿Qué correo aparece en esta frase? «Puedes escribir a Lena a lena.k@mail.example o pasar por recepción».",
    "Etiqueta cada frase como pregunta o afirmación: «¿Llueve?», «Me fui pronto.», «¿Dónde está la llave?»",
  ], 3),
  fam("es.reason.text", ["reasoning"], "standard", [
    "{note}\n\n¿Se trata a alguien de forma injusta aquí? Argumenta ambas posturas.",
    "¿La conclusión de este texto se sostiene con las pruebas que da? Razona tu respuesta.\n\n{article}",
    "{note}\n\n¿Qué riesgos tiene este plan que nadie menciona, y cuál pesa más?",
    "Lee esto y dime si compensa o no, y por qué:\n\n{note}",
  ], 8),
  fam("es.creative.rewrite", ["creative"], "standard", [
    "Convierte este texto en un poema corto que rime:\n\n{note}",
    "{note}\n\nReescríbelo como la voz en off de un tráiler de película dramático.",
    "Cuenta el siguiente texto como un cuento para dormir para un niño de cinco años:\n{article}",
  ], 8),
  fam("es.tr.fourth", ["translation"], "standard", [
    "{note}\n\nEn {tolang}, por favor.",
    "Dame este texto palabra por palabra en {tolang}:\n\n{note}",
    "Traduce el texto de abajo al {tolang} para el equipo de soporte.\n\n{note}",
  ], 8),
  fam("es.sum.ask", ["summarization"], "standard", [
    "¿Me resumes las conclusiones principales de esto para mi jefa?\n\n{article}",
    "{note}\n\nExplícamelo en breve, como a un compañero con prisa.",
    "Esboza los puntos principales del siguiente texto en unas pocas viñetas:\n{note}",
    "{article}\n\n¿En qué queda todo esto, en palabras sencillas?",
  ], 12),
  fam("es.extract.ask", ["extraction"], "standard", [
    "¿Cuándo vence cada cosa y cuánto cuesta? Responde solo con lo que dice el texto.\n\n{contact}",
    "{note}\n\nHaz una lista de las tareas con quién se encarga de cada una.",
    "¿Qué empresas y organizaciones se mencionan? Solo los nombres.\n\n{note}",
    "{contact}\n\nDe ahí solo necesito los teléfonos y los correos.",
  ], 12),
  fam("es.sum.main", ["summarization"], "standard", [
    "¿Cuál es la idea principal de este texto?\n\n{note}",
    "{article}\n\n¿Hay algo importante ahí que deba saber? Que sea breve.",
    "Condénsalo en 30 palabras como mucho:\n{note}",
    "{note}\n\n¿De qué trata, muy por encima?",
  ], 12),
  fam("es.extract.find", ["extraction"], "standard", [
    "Encuentra todas las fechas y plazos del siguiente texto y dámelos en formato ISO:\n\n{note}",
    "{note}\n\n¿Cuál es el importe total y a qué corresponde?",
    "Extrae los datos clave como una lista JSON de campo y valor:\n{contact}",
  ], 9),
  fam("es.general.reply", [], "standard", [
    "Escribe una respuesta educada a este mensaje:\n\n{note}",
    "{contact}\n\nRedáctame una respuesta a eso, amable pero corta.",
  ], 4),
  fam("es.reason.text2", ["reasoning"], "standard", [
    "{note}\n\n¿Te parece razonable? Piénsalo y dime qué harías tú en mi lugar.",
    "Según este texto, ¿qué opción nos conviene más y por qué?\n\n{article}",
  ], 6),
];
