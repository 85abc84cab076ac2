import { fam, type Pools } from "./kit";

/** Portuguese (Brazilian). */
export const pools: Pools = {
  plang: ["Python", "JavaScript", "Java", "Go", "TypeScript", "C#", "PHP", "Kotlin"],
  codetask: [
    ["inverta uma string", "light"],
    ["verifique se um número é par", "light"],
    ["some os valores de uma lista", "light"],
    ["leia um arquivo CSV e devolva uma lista de registros", "standard"],
    ["valide um CPF com os dígitos verificadores", "standard"],
    ["faça paginação numa API REST até a última página", "standard"],
    ["implemente um cache LRU com get e put em O(1)", "standard"],
    ["implemente uma fila sem locks com vários produtores e consumidores", "strong"],
    ["implemente a eleição de líder do Raft com testes de partição de rede", "strong"],
  ],
  bugsym: [
    ["meu loop imprime o último item duas vezes", "light"],
    ["recebo 'undefined' quando imprimo o resultado do fetch", "standard"],
    ["o build do Docker funciona local mas falha no CI com 'permission denied'", "standard"],
    ["o serviço vaza memória devagar e cai depois de dois dias", "strong"],
    ["duas goroutines travam de vez em quando sob carga, só em produção", "strong"],
  ],
  mathprob: [
    ["Quanto é 15% de 80?", "light"],
    ["Resolva 2x + 7 = 19.", "light"],
    ["Quanto é 12 vezes 13?", "light"],
    ["Calcule a derivada de x³ · cos(x).", "standard"],
    ["Qual a probabilidade de tirar pelo menos um seis em quatro lançamentos de um dado?", "standard"],
    ["Resolva o sistema x + y = 10, x - y = 2.", "standard"],
    ["Prove que existem infinitos números primos.", "strong"],
    ["Prove por indução que 1 + 3 + 5 + ... + (2n - 1) = n².", "strong"],
    ["Prove que raiz de 2 é irracional.", "strong"],
  ],
  decision: [
    ["reescrever nosso monólito em microsserviços com uma equipe de cinco pessoas", "strong"],
    ["alugar ou comprar um apartamento se eu talvez me mude em três anos", "standard"],
    ["aceitar um emprego que paga mais mas exige duas horas de trânsito", "standard"],
    ["usar PostgreSQL ou MongoDB numa plataforma de reservas com muitos relatórios", "strong"],
    ["plano mensal ou anual da academia se vou duas vezes por semana", "light"],
  ],
  topic: ["o mar no inverno", "minha avó", "São Paulo na chuva", "um gato detetive", "o primeiro dia de aula", "um farol abandonado", "um dragão com medo de fogo"],
  article: [
    "A câmara municipal aprovou na terça-feira a ampliação da rede de ciclovias em 40 quilômetros nos próximos três anos. Os defensores dizem que as ciclovias atuais reduziram os acidentes em um terço; a associação de lojistas teme a perda de vagas de estacionamento. O plano será revisto após o primeiro ano.",
    "Ata da reunião de produto. Presentes: Ana, Bruno, Carla. Ana informou que o novo cadastro aumentou a ativação de 31% para 38%. Bruno apontou problemas de layout em telas pequenas. Decisão: lançar para todos na segunda-feira, Bruno corrige o layout antes. Carla escreve a nota de versão.",
    "O incidente começou às 14h05, quando uma mudança de configuração reduziu o limite de conexões do banco principal de 500 para 50. A taxa de erro do checkout chegou a 40% em quatro minutos. O plantonista reverteu a mudança às 14h31; cerca de 3.100 pedidos falharam.",
  ],
  contact: [
    "Olá, por favor enviem o contrato assinado para Rafael Souza (rafael.souza@exemplo.com.br) até 14 de junho. A nota fiscal NF-2291 de R$ 4.300 vence em 30 de junho. Meu telefone é (11) 98765-4321. Abraços, Fernanda Lima, Compras, Rua das Flores 12, São Paulo.",
    "Pedido 77-1192 feito em 3 de março por Daniel Costa: 2 cabos USB-C (R$ 49,90 cada) e um suporte de notebook (R$ 129). Entrega na Av. Paulista 1800, São Paulo, prevista para 7 de março.",
  ],
  tr_short: [["bom dia", "light"], ["onde fica a estação de trem?", "light"], ["muito obrigado pela ajuda", "light"], ["a reunião foi remarcada para quinta", "light"]],
  tolang: ["inglês", "espanhol", "francês", "alemão", "italiano", "japonês"],
  fact: ["Qual é a capital da Austrália?", "Quem escreveu Dom Casmurro?", "Em que ano o Brasil ficou independente?", "Quantos estados tem o Brasil?", "Qual é o maior rio do mundo?", "Quem pintou o Abaporu?", "Qual planeta é o mais próximo do Sol?"],
  greet: ["oi", "olá!", "valeu", "tudo bem?", "muito obrigado, ajudou muito", "pode me ajudar?", "beleza"],
  advice: [["Como posso dormir mais rápido?", "light"], ["Dicas para minha primeira entrevista de emprego?", "light"], ["Escreva um e-mail educado para o meu senhorio pedindo o conserto do aquecedor.", "light"], ["Monte um roteiro de sete dias pelo Japão no outono com orçamento médio.", "standard"]],
  // Issue 15, fourth pass: new pasted texts for the fourth-pass families only (a new pool, so no
  // earlier prompt changes).
  note: [
    "Avaliação, duas estrelas: a cafeteira parecia ótima, mas depois de três semanas a tampa começou a vazar e o motor cheira a queimado depois de um minuto. O atendimento (chamado 88412) só ofereceu um vale de 15% em vez do conserto. Comprei no dia 9 de janeiro por R$ 349.",
    "Aviso aos moradores da Rua do Porto, 58: o elevador será trocado de 2 a 20 de outubro. Nesse período, usem a escada dos fundos. Encomendas com mais de 20 kg ficam com o porteiro, seu Almeida, na sala 001. Dúvidas: (11) 5550-1234, em dias úteis das 9h às 17h.",
  ],
};

export const families = [
  fam("pt.code.write", ["code"], "slot", ["Escreva uma função em {plang} que {codetask}.", "Como faço em {plang} um código que {codetask}?", "Preciso de um script {plang} que {codetask}, com testes."], 36),
  fam("pt.code.bug", ["code"], "slot", ["{bugsym}. O que pode ser e como corrijo?", "Me ajuda a depurar: {bugsym}.", "Temos um problema em produção: {bugsym}. Por onde começo?"], 15),
  fam("pt.code.nokw", ["code"], "slot", [
    ["Como desfaço o último commit sem perder as alterações?", "light"],
    ["Projete um encurtador de URLs que aguente 50 mil escritas por segundo, com estatísticas e domínios próprios.", "strong"],
    ["Como centralizar uma div?", "light"],
    ["npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\n\no que faço com esse erro?", "light"],
  ], 4),
  fam("pt.math", ["math"], "slot", ["{mathprob}", "Pode me ajudar nesse exercício? {mathprob}", "{mathprob} Mostre os passos."], 24),
  fam("pt.reason", ["reasoning"], "slot", ["Me ajuda a pensar se devemos {decision}. Quais são os prós e contras?", "Estou na dúvida entre {decision}. Analise as opções e recomende uma.", "Vale a pena {decision}? Avalie os riscos."], 15),
  fam("pt.reason.nokw", ["reasoning"], "slot", [
    ["Se o Banco Central subir os juros de novo, o que acontece com o financiamento imobiliário, os preços e os aluguéis em dois anos?", "strong"],
    ["Nossos cadastros caíram 20% no mês passado, mas o tráfego é o mesmo. Quais são as explicações possíveis e como testar cada uma?", "strong"],
    ["Se hoje é quarta-feira, que dia será daqui a 100 dias?", "light"],
  ], 3),
  fam("pt.creative", ["creative"], "slot", [["Escreva um haicai sobre {topic}.", "light"], ["Escreva um poema curto sobre {topic}.", "light"], ["Escreva um conto de umas 300 palavras sobre {topic}.", "standard"], ["Escreva o primeiro capítulo de um romance sobre {topic}, com dois narradores e uma reviravolta que muda o sentido da primeira cena.", "strong"], ["Crie um slogan para uma padaria de bairro.", "standard"]], 26),
  fam("pt.extract", ["extraction"], "standard", ["Extraia os nomes, e-mails e telefones deste texto:\n\n{contact}", "Tire as datas e valores disto em JSON:\n{contact}", "Quem aparece neste texto e como falo com cada um?\n\n{contact}", "Preencha uma ficha com nome, empresa, e-mail e prazo a partir disto:\n{contact}", "Liste as decisões e responsáveis desta ata:\n\n{article}"], 15),
  fam("pt.sum", ["summarization"], "standard", ["Resuma isto em três tópicos:\n\n{article}", "Faz um resumo rápido:\n{article}", "{article}\n\nQual é a ideia principal?", "Resuma os documentos abaixo para a diretoria:\n\n{article*3}"], 12),
  fam("pt.sum.short", ["summarization"], "slot", [["Resuma o enredo de Dom Casmurro em cinco linhas.", "light"], ["Faz um resumo curto da independência do Brasil.", "light"], ["Resuma esta notícia em uma frase: a prefeitura amplia as ciclovias em 40 km em três anos.", "light"], ["Resuma Grande Sertão: Veredas sem contar o final.", "standard"], ["Resuma em três tópicos: a receita cresceu 12%, mas a margem caiu dois pontos.", "light"]], 5),
  fam("pt.tr", ["translation"], "light", ["Traduza \"{tr_short}\" para o {tolang}.", "Como se diz \"{tr_short}\" em {tolang}?", "Passa isso pro {tolang}: \"{tr_short}\"", "Preciso de \"{tr_short}\" em {tolang} para um cartaz."], 20),
  fam("pt.tr.doc", ["translation"], "standard", ["Traduza este texto para o {tolang} com tom formal:\n\n{article}", "Passa este e-mail para o {tolang}:\n{contact}"], 8),
  fam("pt.simple", ["simple"], "light", ["{fact}", "{greet}"], 14),
  fam("pt.general", [], "slot", ["{advice}"], 4),
  fam("pt.mix", ["summarization", "translation"], "standard", ["Resuma este texto e traduza o resumo para o {tolang}:\n\n{article}"], 3),
  fam("pt.turn", ["code"], "slot", ["Escreva uma função em {plang} que {codetask}. ||| Aqui está uma versão comentada. ||| e em Rust?", "Como faço em {plang} um código que {codetask}? ||| Dá para fazer assim... ||| coloca testes"], 8),
  fam("pt.turn.thanks", ["simple"], "light", ["{mathprob} ||| A solução está acima, passo a passo. ||| valeu!"], 3),
  // More request shapes (added for issue 15: extraction and translation phrased other ways, creative forms).
  fam("pt.extract.more", ["extraction"], "standard", ["Quais prazos aparecem neste e-mail?\n\n{contact}", "Me passa só o número da nota e o valor total:\n{contact}", "Transforma esta mensagem numa linha de planilha (quem, o quê, quanto, quando):\n\n{contact}", "Anota todos os números deste texto e a que se referem:\n\n{article}", "Aponta cada empresa ou organização citada aqui:\n{article}"], 15),
  fam("pt.tr.more", ["translation"], "slot", [["Como se escreve \"{tr_short}\" em {tolang}?", "light"], ["Passa \"{tr_short}\" para o {tolang}, por favor.", "light"], ["Preciso mandar esta mensagem para um cliente que só fala {tolang}:\n\n{contact}", "standard"], ["Versão em {tolang} deste texto, mesmo tom:\n{article}", "standard"], ["Do português para o {tolang}: {tr_short}", "light"]], 15),
  fam("pt.creative.more", ["creative"], "slot", [["Inventa uma fábula curta sobre {topic}.", "light"], ["Escreve a letra de uma canção sobre {topic}.", "standard"], ["Me conta uma história de terror sobre {topic}.", "standard"], ["Um microconto de menos de cem palavras sobre {topic}.", "light"]], 12),
  // Issue 15, third pass: summaries, extractions and translations over pasted text asked in other words.
  fam("pt.sum.third", ["summarization"], "standard", ["Me dá a versão curta disto:\n\n{article}", "{article}\n\nConsegue dizer isso em duas frases?", "Não tenho tempo de ler. O que diz aqui?\n\n{article}", "Escreva um breve panorama do texto abaixo para o boletim.\n\n{article}"], 16),
  fam("pt.extract.third", ["extraction"], "standard", ["Quais datas e horários aparecem nesta mensagem? Faça uma lista.\n\n{contact}", "{contact}\n\nTira daí só os nomes e os telefones.", "Me dá um JSON com remetente, destinatário, data e valor deste e-mail:\n\n{contact}", "Anote cada organização e cada valor do texto abaixo.\n\n{article}"], 16),
  fam("pt.tr.third", ["translation"], "slot", [["Pode passar isto para o {tolang} para os nossos parceiros?\n\n{article}", "standard"], ["{contact}\n\nMe devolve isso em {tolang}, por favor.", "standard"], ["Preciso do texto abaixo em {tolang}, sem mudar os nomes:\n\n{contact}", "standard"], ["Me ajuda a dizer isto em {tolang}: \"{tr_short}\"", "light"]], 16),
  // Issue 15, fourth pass (docs/routing.md, "The corpus"): summaries and extractions asked in general
  // shapes, and near-misses (reasoning about a text, a creative rewrite, a translation). Appended.
  fam("pt.sum.fourth", ["summarization"], "standard", [
    "Qual é a conclusão disso aqui?\n\n{note}",
    "{note}\n\nResumão?",
    "Resuma o texto abaixo em menos de 50 palavras.\n\n{note}",
    "{article}\n\nMe dá três tópicos que eu possa colar no chat da equipe.",
    "Só os pontos principais, por favor:\n{note}",
    "Do que se trata isto, numa linha?\n\n{note}",
    "Dá para reduzir isto a um parágrafo sem perder nada importante?\n\n{article}",
    "{contact}\n\nResume isso numa frase só.",
  ], 20),
  fam("pt.sum.inline", ["summarization"], "light", [
    "Versão curta, por favor: a reunião passou para sexta porque o cliente está viajando, e a revisão do orçamento ficou para o mês que vem.",
    "Resuma esta avaliação em poucas palavras: câmera ótima, a bateria não dura até o almoço, o app é confuso, o preço é justo.",
    "Em uma ou duas frases, do que tratou o Congresso de Viena?",
  ], 3),
  fam("pt.extract.fourth", ["extraction"], "standard", [
    "Me devolve um JSON com os campos nome, data, valor e assunto a partir deste texto:\n\n{note}",
    "{note}\n\nQuais datas aparecem aí? Só a lista.",
    "Liste cada quantia de dinheiro do texto e para que ela serve:\n{note}",
    "Quais pessoas são citadas aqui, e qual é o papel de cada uma?\n\n{note}",
    "Encontra o prazo, o telefone e a pessoa de contato, mais nada:\n\n{note}",
    "{contact}\n\nColoca os nomes e as datas numa tabela de duas colunas.",
    "{note}\n\nQuais números de referência aparecem, e a que corresponde cada um?",
    "Transforma isso em dados estruturados (chaves: quem, o quê, quando, onde):\n{note}",
  ], 20),
  fam("pt.extract.inline", ["extraction"], "light", [
    "Tira a data e a hora de: “Dentista remarcado para quarta, 14 de maio, 9h40.”",
    "Qual e-mail aparece nesta frase? “Dá para falar com a Lena em lena.k@mail.example ou na recepção.”",
    "Classifique cada frase como pergunta ou afirmação: “Está chovendo?”, “Saí cedo.”, “Cadê a chave?”",
  ], 3),
  fam("pt.reason.text", ["reasoning"], "standard", [
    "{note}\n\nAlguém está sendo tratado de forma injusta aqui? Defenda os dois lados.",
    "A conclusão deste texto decorre das evidências que ele apresenta? Justifique.\n\n{article}",
    "{note}\n\nQue riscos este plano tem que ninguém menciona, e qual pesa mais?",
    "Lê isto e me diz se vale a pena ou não, e por quê:\n\n{note}",
  ], 8),
  fam("pt.creative.rewrite", ["creative"], "standard", [
    "Transforma este texto num poema curto com rima:\n\n{note}",
    "{note}\n\nReescreve isso como a narração de um trailer de filme dramático.",
    "Conta o texto a seguir como uma história de ninar para uma criança de cinco anos:\n{article}",
  ], 8),
  fam("pt.tr.fourth", ["translation"], "standard", [
    "{note}\n\nEm {tolang}, por favor.",
    "Me dá este texto palavra por palavra em {tolang}:\n\n{note}",
    "Traduza o texto abaixo para o {tolang} para a equipe de suporte.\n\n{note}",
  ], 8),
  fam("pt.sum.ask", ["summarization"], "standard", [
    "Pode recapitular as principais conclusões disto para a minha chefe?\n\n{article}",
    "{note}\n\nMe explica isso rapidinho, como para um colega sem tempo.",
    "Destaque os pontos principais do texto a seguir em alguns tópicos:\n{note}",
    "{article}\n\nNo fim das contas, o que isso quer dizer?",
  ], 12),
  fam("pt.extract.ask", ["extraction"], "standard", [
    "O que vence quando, e quanto custa? Responda só com base neste texto.\n\n{contact}",
    "{note}\n\nFaz uma lista das tarefas com o responsável por cada uma.",
    "Quais empresas e organizações são mencionadas? Só os nomes.\n\n{note}",
    "{contact}\n\nDisso eu só preciso dos telefones e dos e-mails.",
  ], 12),
  fam("pt.sum.main", ["summarization"], "standard", [
    "Qual é a ideia principal deste texto?\n\n{note}",
    "{article}\n\nTem alguma coisa importante aí que eu precise saber? Bem curto.",
    "Condense isto em no máximo 30 palavras:\n{note}",
    "{note}\n\nÉ sobre o quê, por alto?",
  ], 12),
  fam("pt.extract.find", ["extraction"], "standard", [
    "Encontre todas as datas e prazos do texto a seguir e me passe no formato ISO:\n\n{note}",
    "{note}\n\nQual é o valor total, e é referente a quê?",
    "Extraia os fatos principais como uma lista JSON de campo e valor:\n{contact}",
  ], 9),
  fam("pt.general.reply", [], "standard", [
    "Escreva uma resposta educada para esta mensagem:\n\n{note}",
    "{contact}\n\nRedige uma resposta para isso, simpática mas curta.",
  ], 4),
  fam("pt.reason.text2", ["reasoning"], "standard", [
    "{note}\n\nIsso é razoável? Pensa bem e me diz o que você faria no meu lugar.",
    "Com base neste texto, qual opção é melhor para nós, e por quê?\n\n{article}",
  ], 6),
];
