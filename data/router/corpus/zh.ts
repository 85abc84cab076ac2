import { fam, type Pools } from "./kit";

/** Chinese (simplified). */
export const pools: Pools = {
  plang: ["Python", "JavaScript", "Java", "Go", "C++", "TypeScript", "Rust", "PHP"],
  codetask: [
    ["反转一个字符串", "light"],
    ["判断一个数是不是偶数", "light"],
    ["找出列表里的最大值", "light"],
    ["读取 CSV 文件并返回记录列表", "standard"],
    ["校验身份证号码的校验位", "standard"],
    ["对 HTTP 请求做指数退避重试", "standard"],
    ["实现一个 get 和 put 都是 O(1) 的 LRU 缓存", "standard"],
    ["实现一个多生产者多消费者的无锁队列", "strong"],
    ["基于 Redis 实现一个在多进程下依然正确的分布式限流器", "strong"],
  ],
  bugsym: [
    ["我的循环把最后一个元素打印了两次", "light"],
    ["加了路由以后页面就白屏了", "standard"],
    ["单独跑测试都能过，一起跑就失败", "standard"],
    ["服务内存一直缓慢增长，两天后被 OOM 杀掉", "strong"],
    ["高并发下偶尔死锁，只在生产环境出现", "strong"],
  ],
  mathprob: [
    ["80 的 15% 是多少？", "light"],
    ["解方程 3x + 5 = 20。", "light"],
    ["17 乘以 23 等于多少？", "light"],
    ["求 x² · sin(x) 的导数。", "standard"],
    ["抛五次硬币，至少两次正面的概率是多少？", "standard"],
    ["解方程组 2x + y = 5，x - y = 1。", "standard"],
    ["证明素数有无穷多个。", "strong"],
    ["证明任何 p² 阶群都是交换群。", "strong"],
    ["证明根号 2 加根号 3 是无理数。", "strong"],
  ],
  decision: [
    ["五个人的团队要不要把单体应用拆成微服务", "strong"],
    ["三年内可能搬家的话，是租房还是买房", "standard"],
    ["要不要接受一份工资更高但通勤两小时的工作", "standard"],
    ["预订平台报表很多，用 PostgreSQL 还是 MongoDB", "strong"],
    ["一周去两次健身房，办月卡还是年卡", "light"],
  ],
  topic: ["秋天的落叶", "我的奶奶", "雨中的上海", "一只当侦探的猫", "开学第一天", "废弃的灯塔", "怕火的龙"],
  article: [
    "市议会周二投票通过，在未来三年内将自行车道网络扩展 40 公里。支持者认为现有车道使事故减少了三分之一，而商户协会担心停车位减少会影响生意。该计划将在一年后进行评估，交通数据每季度公布一次。",
    "产品周会纪要。参会人：王芳、李强、张伟。王芳汇报新的注册流程使激活率从 31% 提升到 38%。李强指出小屏幕上的布局问题。决定：下周一全量上线，李强先修复布局。张伟负责写发布说明。",
    "事故始于 14:05，一次配置变更把主数据库的连接上限从 500 降到了 50。四分钟内支付接口的错误率升至 40%。值班工程师在 14:31 回滚了变更，约 3100 笔订单失败，已通知客户并发放优惠券。",
  ],
  contact: [
    "你好，请在 6 月 14 日前把签好的合同发给陈明（chen.ming@example.cn）。编号 INV-2291 的发票金额 4300 元，6 月 30 日到期。我的电话是 138 0013 8000。采购部 刘洋，北京市朝阳区建国路 12 号。",
    "订单 77-1192，下单时间 3 月 3 日，买家赵磊：USB-C 数据线 2 根（每根 39 元），笔记本支架 1 个（129 元）。收货地址：杭州市西湖区文三路 18 号，预计 3 月 7 日送达。",
  ],
  tr_short: [["早上好", "light"], ["火车站在哪里？", "light"], ["非常感谢你的帮助", "light"], ["会议改到周四了", "light"]],
  tolang: ["英文", "日文", "法文", "德文", "西班牙文", "韩文"],
  fact: ["澳大利亚的首都是哪里？", "《红楼梦》的作者是谁？", "柏林墙是哪一年倒塌的？", "珠穆朗玛峰有多高？", "中国有多少个省？", "离太阳最近的行星是哪个？", "长江有多长？"],
  greet: ["你好", "在吗？", "谢谢", "最近怎么样？", "太感谢了，很有用", "你能帮我吗？", "好的"],
  advice: [["怎样才能更快入睡？", "light"], ["第一次面试有什么建议？", "light"], ["帮我给房东写一封礼貌的邮件，请他修暖气。", "light"], ["帮我规划一个秋天去日本七天的行程，预算中等。", "standard"]],
  // Issue 15, fourth pass: new pasted texts for the fourth-pass families only (a new pool, so no
  // earlier prompt changes).
  note: [
    "用户评价，两星：这个电水壶外观不错，但用了三周盖子就开始漏水，烧水时还有一股塑料烧焦的味道。客服（工单 88412）只给了一张 15% 的优惠券，不肯维修。我是 1 月 9 日花 199 元买的。",
    "致港口路 58 号全体住户：10 月 2 日至 20 日将更换电梯，期间请走后楼梯。超过 20 公斤的包裹可以交给 001 室的门卫刘师傅代收。如有疑问，请在工作日 9 点到 17 点拨打 021-5550-1234。",
  ],
};

export const families = [
  fam("zh.code.write", ["code"], "slot", ["用 {plang} 写一个函数，{codetask}。", "怎么用 {plang} 写代码来{codetask}？", "我需要一个 {plang} 脚本，{codetask}，顺便写几个测试。"], 36),
  fam("zh.code.bug", ["code"], "slot", ["{bugsym}，可能是什么原因？怎么修？", "帮我调试一下：{bugsym}。", "线上出问题了：{bugsym}。该从哪里查起？"], 15),
  fam("zh.code.nokw", ["code"], "slot", [
    ["怎么撤销上一次 commit 但保留改动？", "light"],
    ["设计一个每秒 5 万次写入的短链接服务，要有统计和自定义域名，讲清楚存储、ID 生成、缓存和故障处理。", "strong"],
    ["进程和线程有什么区别？", "light"],
    ["Traceback (most recent call last):\n  File \"main.py\", line 8, in <module>\n    print(data['name'])\nKeyError: 'name'\n\n这个报错什么意思？", "light"],
  ], 4),
  fam("zh.math", ["math"], "slot", ["{mathprob}", "帮我做一下这道题：{mathprob}", "{mathprob}请写出步骤。"], 24),
  fam("zh.reason", ["reasoning"], "slot", ["帮我分析一下：{decision}？各有什么利弊？", "我在纠结{decision}，帮我权衡一下并给出建议。", "{decision}，你怎么看？请说明理由。"], 15),
  fam("zh.reason.nokw", ["reasoning"], "slot", [
    ["如果央行继续加息，未来两年房贷、房价和房租会怎么变化？请说明其中的传导链条。", "strong"],
    ["上个月注册量下降了 20%，但流量没变。可能有哪些原因？每个原因怎么验证？", "strong"],
    ["今天是星期三，100 天后是星期几？", "light"],
  ], 3),
  fam("zh.creative", ["creative"], "slot", [["写一首关于{topic}的俳句。", "light"], ["写一首关于{topic}的短诗。", "light"], ["写一篇关于{topic}的小故事，大约 500 字。", "standard"], ["以{topic}为题写一部长篇小说的第一章，双视角叙事，结尾要有一个反转，改变第一幕的意义。", "strong"], ["给一家社区面包店想一句广告语。", "standard"]], 26),
  fam("zh.extract", ["extraction"], "standard", ["从下面这段文字里提取人名、邮箱和电话：\n\n{contact}", "把里面的日期和金额整理成 JSON：\n{contact}", "这段文字里提到了哪些人？怎么联系他们？\n\n{contact}", "根据下面内容填一张表：姓名、公司、邮箱、截止日期。\n{contact}", "列出这份纪要里的决定和负责人：\n\n{article}"], 15),
  fam("zh.sum", ["summarization"], "standard", ["用三点总结一下：\n\n{article}", "帮我概括一下这段内容：\n{article}", "{article}\n\n这段话的要点是什么？", "把下面几份材料总结成给领导看的简报：\n\n{article*3}"], 12),
  fam("zh.sum.short", ["summarization"], "slot", [["用五行概括一下《三体》的情节。", "light"], ["简单总结一下辛亥革命。", "light"], ["用一句话概括这条新闻：市政府三年内新增 40 公里自行车道。", "light"], ["概括一下《活着》的故事，不要剧透结局。", "standard"], ["分三点总结：营收增长 12%，但毛利率下降两个百分点。", "light"]], 5),
  fam("zh.tr", ["translation"], "light", ["把“{tr_short}”翻译成{tolang}。", "“{tr_short}”用{tolang}怎么说？", "帮我翻成{tolang}：“{tr_short}”", "我要做个牌子，需要“{tr_short}”的{tolang}写法。"], 20),
  fam("zh.tr.doc", ["translation"], "standard", ["把这段话翻译成{tolang}，语气正式一些：\n\n{article}", "帮我把这封邮件翻成{tolang}：\n{contact}"], 8),
  fam("zh.simple", ["simple"], "light", ["{fact}", "{greet}"], 14),
  fam("zh.general", [], "slot", ["{advice}"], 4),
  fam("zh.mix", ["summarization", "translation"], "standard", ["总结一下这段文字，并把总结翻译成{tolang}：\n\n{article}"], 3),
  fam("zh.turn", ["code"], "slot", ["用 {plang} 写一个函数，{codetask}。 ||| 这是带注释的版本。 ||| 用 Rust 呢？", "怎么用 {plang} 写代码来{codetask}？ ||| 可以这样做…… ||| 加上测试"], 8),
  fam("zh.turn.thanks", ["simple"], "light", ["{mathprob} ||| 解题步骤如上。 ||| 谢谢！"], 3),
  // More request shapes (added for issue 15: extraction and translation phrased other ways, creative forms).
  fam("zh.extract.more", ["extraction"], "standard", ["这封邮件里有哪些截止日期？\n\n{contact}", "只告诉我发票号和总金额：\n{contact}", "把这条消息整理成表格的一行（谁、什么、多少钱、什么时候）：\n\n{contact}", "找出这段文字里的所有数字，并说明各自指什么：\n\n{article}", "标出这里提到的每一家公司和机构：\n{article}"], 15),
  fam("zh.tr.more", ["translation"], "slot", [["“{tr_short}”的{tolang}怎么写？", "light"], ["请把“{tr_short}”换成{tolang}。", "light"], ["我要把这条消息发给一个只会{tolang}的客户：\n\n{contact}", "standard"], ["这段文字的{tolang}版本，语气不变：\n{article}", "standard"], ["中译{tolang}：{tr_short}", "light"]], 15),
  fam("zh.creative.more", ["creative"], "slot", [["编一个关于{topic}的短寓言。", "light"], ["写一首关于{topic}的歌词。", "standard"], ["讲一个关于{topic}的恐怖故事。", "standard"], ["写一篇一百字以内的微小说，主题是{topic}。", "light"]], 12),
  // Issue 15, third pass: summaries, extractions and translations over pasted text asked in other words.
  fam("zh.sum.third", ["summarization"], "standard", ["给我这段内容的简短版本：\n\n{article}", "{article}\n\n能用两句话说完吗？", "我没时间看，这段讲了什么？\n\n{article}", "为下面这段文字写一个简短的概述，放在周报里。\n\n{article}"], 16),
  fam("zh.extract.third", ["extraction"], "standard", ["这条消息里出现了哪些日期和时间？列出来。\n\n{contact}", "{contact}\n\n只把里面的人名和电话找出来。", "从这封邮件里整理出一个 JSON：发件人、收件人、日期、金额。\n\n{contact}", "把下面文字里提到的每个机构和金额都记下来。\n\n{article}"], 16),
  fam("zh.tr.third", ["translation"], "slot", [["能把这段话转成{tolang}给合作方看吗？\n\n{article}", "standard"], ["{contact}\n\n请用{tolang}把这个发回给我。", "standard"], ["我需要下面这段的{tolang}版本，人名保持不变：\n\n{contact}", "standard"], ["帮我用{tolang}表达这句话：“{tr_short}”", "light"]], 16),
  // Issue 15, fourth pass (docs/routing.md, "The corpus"): summaries and extractions asked in general
  // shapes, and near-misses (reasoning about a text, a creative rewrite, a translation). Appended.
  fam("zh.sum.fourth", ["summarization"], "standard", [
    "这段话的结论是什么？\n\n{note}",
    "{note}\n\n简单说就是？",
    "把下面的文字压缩到 50 字以内。\n\n{note}",
    "{article}\n\n给我三个要点，我要贴到团队群里。",
    "只要重点，谢谢：\n{note}",
    "一句话说说这是关于什么的？\n\n{note}",
    "能把这个缩成一段吗？重要的内容别丢。\n\n{article}",
    "{contact}\n\n用一句话帮我概括一下。",
  ], 20),
  fam("zh.sum.inline", ["summarization"], "light", [
    "简短说一下：会议改到周五，因为客户在出差，预算评审推迟到下个月。",
    "把这条评价概括成几个字：相机很好，电池撑不到中午，应用很难用，价格还算公道。",
    "用一两句话讲讲维也纳会议是关于什么的？",
  ], 3),
  fam("zh.extract.fourth", ["extraction"], "standard", [
    "根据这段文字返回一个 JSON，字段为姓名、日期、金额和主题：\n\n{note}",
    "{note}\n\n里面有哪些日期？只列出来就行。",
    "列出文中每一笔钱以及它的用途：\n{note}",
    "这里提到了哪些人，各自是什么角色？\n\n{note}",
    "帮我找出期限、电话和联系人，别的不要：\n\n{note}",
    "{contact}\n\n把人名和日期整理成两列的表格。",
    "{note}\n\n里面出现了哪些编号，分别代表什么？",
    "把它变成结构化数据（键：谁、什么、何时、何地）：\n{note}",
  ], 20),
  fam("zh.extract.inline", ["extraction"], "light", [
    "从这句话里取出日期和时间：“牙医改到 5 月 14 日周三 9:40。”",
    "这句话里的邮箱是哪个？“可以发邮件到 lena.k@mail.example 找丽娜，或者去前台。”",
    "给每句话标上问句或陈述句：“下雨了吗？”“我走得早。”“钥匙在哪？”",
  ], 3),
  fam("zh.reason.text", ["reasoning"], "standard", [
    "{note}\n\n这里有人受到不公平对待吗？请从双方角度论证。",
    "这篇文字的结论能从它给出的证据推出来吗？说说你的理由。\n\n{article}",
    "{note}\n\n这个安排有哪些没人提到的风险？哪个最要紧？",
    "看看这个，告诉我划不划算，为什么：\n\n{note}",
  ], 8),
  fam("zh.creative.rewrite", ["creative"], "standard", [
    "把这段文字改写成一首押韵的小诗：\n\n{note}",
    "{note}\n\n把它改写成一段戏剧化的电影预告片旁白。",
    "把下面的内容讲成给五岁孩子听的睡前故事：\n{article}",
  ], 8),
  fam("zh.tr.fourth", ["translation"], "standard", [
    "{note}\n\n请用{tolang}。",
    "把这段文字逐字翻成{tolang}给我：\n\n{note}",
    "请把下面的文字翻译成{tolang}，给客服团队用。\n\n{note}",
  ], 8),
  fam("zh.sum.ask", ["summarization"], "standard", [
    "能帮我把这份材料的主要结论总结一下给领导看吗？\n\n{article}",
    "{note}\n\n简单给我讲讲，就像跟一个很忙的同事说一样。",
    "用几个要点列出下面这段文字的主要内容：\n{note}",
    "{article}\n\n说白了，最后是什么情况？",
  ], 12),
  fam("zh.extract.ask", ["extraction"], "standard", [
    "什么事情什么时候到期，要花多少钱？只根据这段文字回答。\n\n{contact}",
    "{note}\n\n列出待办事项，以及每项由谁负责。",
    "里面提到了哪些公司和机构？只要名字。\n\n{note}",
    "{contact}\n\n我只需要里面的电话号码和邮箱地址。",
  ], 12),
  fam("zh.sum.main", ["summarization"], "standard", [
    "这段文字的中心思想是什么？\n\n{note}",
    "{article}\n\n里面有什么我必须知道的重要内容吗？简短点。",
    "把这个浓缩到 30 个字以内：\n{note}",
    "{note}\n\n大概是在讲什么？",
  ], 12),
  fam("zh.extract.find", ["extraction"], "standard", [
    "找出下面文字里的所有日期和截止时间，用 ISO 格式给我：\n\n{note}",
    "{note}\n\n总金额是多少，是什么费用？",
    "把关键信息提取成字段和值的 JSON 列表：\n{contact}",
  ], 9),
  fam("zh.general.reply", [], "standard", [
    "帮我给这条消息写一个礼貌的回复：\n\n{note}",
    "{contact}\n\n帮我起草一个回复，友好但简短。",
  ], 4),
  fam("zh.reason.text2", ["reasoning"], "standard", [
    "{note}\n\n这样合理吗？好好想想，告诉我换作是你会怎么做。",
    "根据这段文字，哪个方案对我们更好，为什么？\n\n{article}",
  ], 6),
];
