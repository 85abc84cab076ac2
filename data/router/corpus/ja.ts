import { fam, type Pools } from "./kit";

/** Japanese. */
export const pools: Pools = {
  plang: ["Python", "JavaScript", "Java", "Go", "C++", "TypeScript", "Rust", "Ruby"],
  codetask: [
    ["文字列を逆順にする", "light"],
    ["数が偶数かどうか判定する", "light"],
    ["リストの最大値を返す", "light"],
    ["CSV ファイルを読み込んでレコードのリストを返す", "standard"],
    ["マイナンバーのチェックデジットを検証する", "standard"],
    ["HTTP リクエストを指数バックオフで再試行する", "standard"],
    ["get と put が O(1) の LRU キャッシュを実装する", "standard"],
    ["複数のプロデューサーとコンシューマーに対応したロックフリーキューを実装する", "strong"],
    ["Raft のリーダー選出をネットワーク分断のテスト付きで実装する", "strong"],
  ],
  bugsym: [
    ["ループが最後の要素を二回出力してしまう", "light"],
    ["ルーターを追加したら画面が真っ白になった", "standard"],
    ["テストを個別に実行すると通るのに、まとめて実行すると落ちる", "standard"],
    ["サービスのメモリがじわじわ増えて、二日後に OOM で落ちる", "strong"],
    ["高負荷時にまれにデッドロックする、本番環境でだけ起きる", "strong"],
  ],
  mathprob: [
    ["80 の 15% はいくつですか？", "light"],
    ["3x + 5 = 20 を解いてください。", "light"],
    ["17 × 23 はいくつ？", "light"],
    ["x² · sin(x) を微分してください。", "standard"],
    ["コインを五回投げて、表が二回以上出る確率は？", "standard"],
    ["連立方程式 2x + y = 5, x - y = 1 を解いてください。", "standard"],
    ["素数が無限に存在することを証明してください。", "strong"],
    ["位数 p² の群はすべて可換であることを証明してください。", "strong"],
    ["√2 + √3 が無理数であることを証明してください。", "strong"],
  ],
  decision: [
    ["五人のチームでモノリスをマイクロサービスに分割すべきか", "strong"],
    ["三年以内に引っ越すかもしれない場合、賃貸と購入のどちらがよいか", "standard"],
    ["給料は高いが通勤に二時間かかる仕事を受けるべきか", "standard"],
    ["レポートの多い予約システムに PostgreSQL と MongoDB のどちらを使うか", "strong"],
    ["週二回ジムに通うなら月会費と年会費のどちらが得か", "light"],
  ],
  topic: ["秋の落ち葉", "祖母の台所", "雨の京都", "探偵の猫", "入学式の日", "廃墟の灯台", "火が怖いドラゴン"],
  article: [
    "市議会は火曜日、今後三年間で自転車レーンを 40 キロ延長する計画を可決した。賛成派は既存のレーンで事故が三分の一減ったと主張し、商店会は駐車スペースの減少を懸念している。計画は一年後に見直され、交通データは四半期ごとに公開される。",
    "プロダクト定例の議事録。出席者：佐藤、鈴木、高橋。佐藤から、新しい登録フローでアクティベーション率が 31% から 38% に上がったと報告。鈴木から小さい画面でのレイアウト崩れの指摘あり。決定事項：来週月曜に全体公開、その前に鈴木がレイアウトを修正。高橋がリリースノートを作成する。",
    "障害は 14:05 に発生した。設定変更によりメインデータベースの接続上限が 500 から 50 に下がり、決済 API のエラー率は四分で 40% に達した。当番のエンジニアが 14:31 に変更を戻し、約 3,100 件の注文が失敗した。",
  ],
  contact: [
    "お世話になっております。署名済みの契約書を 6 月 14 日までに山田太郎様（yamada.taro@example.jp）へお送りください。請求書 INV-2291（43 万円）の支払期限は 6 月 30 日です。ご不明点は 03-1234-5678 までご連絡ください。購買部 田中花子、東京都千代田区丸の内 1-2-3。",
    "注文番号 77-1192、3 月 3 日注文、購入者 中村大輔：USB-C ケーブル 2 本（各 1,480 円）、ノートパソコンスタンド 1 台（3,980 円）。配送先：大阪市北区梅田 1-8、3 月 7 日到着予定。",
  ],
  tr_short: [["おはようございます", "light"], ["駅はどこですか？", "light"], ["手伝ってくれて本当にありがとう", "light"], ["会議は木曜日に変更になりました", "light"]],
  tolang: ["英語", "中国語", "フランス語", "ドイツ語", "スペイン語", "韓国語"],
  fact: ["オーストラリアの首都はどこですか？", "『源氏物語』の作者は誰？", "ベルリンの壁が崩壊したのは何年？", "富士山の高さは？", "日本には都道府県がいくつありますか？", "太陽に一番近い惑星は？", "日本で一番長い川は？"],
  greet: ["こんにちは", "おはよう！", "ありがとう", "元気？", "助かりました、ありがとうございます", "ちょっと手伝ってもらえますか？", "了解です"],
  advice: [["早く眠るにはどうすればいい？", "light"], ["初めての面接のコツを教えて。", "light"], ["暖房を直してほしいと大家さんに丁寧なメールを書いて。", "light"], ["秋の日本を七日間で回る旅程を中くらいの予算で考えて。", "standard"]],
  // Issue 15, fourth pass: new pasted texts for the fourth-pass families only (a new pool, so no
  // earlier prompt changes).
  note: [
    "レビュー、星二つ：電気ケトルは見た目は良かったのですが、三週間でふたから水が漏れるようになり、沸かすとプラスチックの焦げたにおいがします。サポート（問い合わせ番号 88412）は修理ではなく 15% オフのクーポンしか出してくれませんでした。1 月 9 日に 4,980 円で購入。",
    "港通り 58 番地の入居者の皆様へ：10 月 2 日から 20 日までエレベーターの交換工事を行います。期間中は裏の階段をご利用ください。20 kg を超える荷物は 001 号室の管理人、佐々木さんがお預かりします。お問い合わせは平日 9 時から 17 時まで 03-5550-1234 へ。",
  ],
};

export const families = [
  fam("ja.code.write", ["code"], "slot", ["{plang} で{codetask}関数を書いてください。", "{plang} で{codetask}コードはどう書けばいいですか？", "{codetask}{plang} のスクリプトが欲しいです。テストも付けて。"], 36),
  fam("ja.code.bug", ["code"], "slot", ["{bugsym}。原因と直し方を教えてください。", "デバッグを手伝って：{bugsym}。", "本番で問題が起きています：{bugsym}。どこから調べればいい？"], 15),
  fam("ja.code.nokw", ["code"], "slot", [
    ["直前のコミットを変更は残したまま取り消すには？", "light"],
    ["毎秒 5 万件の書き込みに耐える短縮 URL サービスを設計してください。統計と独自ドメイン対応、ストレージ、ID 生成、キャッシュ、障害時の挙動まで。", "strong"],
    ["プロセスとスレッドの違いは？", "light"],
    ["```python\nfor i in range(len(items)):\n    if items[i] == target:\n        items.remove(items[i])\n```\nこれで IndexError が出るのはなぜ？", "standard"],
  ], 4),
  fam("ja.math", ["math"], "slot", ["{mathprob}", "この問題を手伝ってください：{mathprob}", "{mathprob}途中式も書いてください。"], 24),
  fam("ja.reason", ["reasoning"], "slot", ["{decision}、メリットとデメリットを整理してください。", "{decision}で迷っています。選択肢を分析しておすすめを教えて。", "{decision}について、判断のポイントを教えてください。"], 15),
  fam("ja.reason.nokw", ["reasoning"], "slot", [
    ["日銀がさらに利上げしたら、今後二年で住宅ローン、住宅価格、家賃はどう動く？波及の流れを説明して。", "strong"],
    ["先月、アクセス数は変わらないのに登録数が 20% 減りました。考えられる原因と、それぞれの検証方法は？", "strong"],
    ["今日が水曜日なら、100 日後は何曜日？", "light"],
  ], 3),
  fam("ja.creative", ["creative"], "slot", [["{topic}の俳句を詠んでください。", "light"], ["{topic}についての短い詩を書いて。", "light"], ["{topic}をテーマに 800 字くらいの短編小説を書いてください。", "standard"], ["{topic}を題材に長編小説の第一章を書いてください。二人の語り手で、最初の場面の意味が変わるどんでん返しを入れて。", "strong"], ["商店街のパン屋のキャッチコピーを考えて。", "standard"]], 26),
  fam("ja.extract", ["extraction"], "standard", ["次の文章から名前、メールアドレス、電話番号を抜き出してください：\n\n{contact}", "日付と金額を JSON で抜き出して：\n{contact}", "この文章に出てくる人と連絡先を教えて。\n\n{contact}", "次の内容から氏名・会社・メール・期限の表を作って：\n{contact}", "この議事録から決定事項と担当者を一覧にして：\n\n{article}"], 15),
  fam("ja.sum", ["summarization"], "standard", ["三行で要約してください：\n\n{article}", "ざっくりまとめて：\n{article}", "{article}\n\n要点は何？", "次の資料を役員向けにまとめてください：\n\n{article*3}"], 12),
  fam("ja.sum.short", ["summarization"], "slot", [["『こころ』のあらすじを五行でまとめて。", "light"], ["明治維新を簡単に要約してください。", "light"], ["このニュースを一文で要約して：市が三年で自転車レーンを 40 キロ延長。", "light"], ["『ノルウェイの森』を結末に触れずに要約して。", "standard"], ["三点でまとめて：売上は 12% 増、粗利率は二ポイント低下。", "light"]], 5),
  fam("ja.tr", ["translation"], "light", ["「{tr_short}」を{tolang}に翻訳して。", "「{tr_short}」は{tolang}で何と言いますか？", "{tolang}にしてください：「{tr_short}」", "看板用に「{tr_short}」の{tolang}表記が欲しいです。"], 20),
  fam("ja.tr.doc", ["translation"], "standard", ["この文章を丁寧な{tolang}に訳してください：\n\n{article}", "このメールを{tolang}にしてください：\n{contact}"], 8),
  fam("ja.simple", ["simple"], "light", ["{fact}", "{greet}"], 14),
  fam("ja.general", [], "slot", ["{advice}"], 4),
  fam("ja.mix", ["summarization", "translation"], "standard", ["この文章を要約して、要約を{tolang}に訳してください：\n\n{article}"], 3),
  fam("ja.turn", ["code"], "slot", ["{plang} で{codetask}関数を書いてください。 ||| コメント付きの実装です。 ||| Rust だと？", "{plang} で{codetask}コードはどう書けばいいですか？ ||| こんな感じです…… ||| テストも追加して"], 8),
  fam("ja.turn.thanks", ["simple"], "light", ["{mathprob} ||| 解き方は上の通りです。 ||| ありがとう！"], 3),
  // More request shapes (added for issue 15: extraction and translation phrased other ways, creative forms).
  fam("ja.extract.more", ["extraction"], "standard", ["このメールに書かれている締め切りは？\n\n{contact}", "請求書番号と合計金額だけ教えて：\n{contact}", "このメッセージを表の一行にまとめて（誰、何、いくら、いつ）：\n\n{contact}", "この文章に出てくる数字をすべて拾って、それぞれ何を指すか書いて：\n\n{article}", "ここに出てくる会社や団体をすべて挙げて：\n{article}"], 15),
  fam("ja.tr.more", ["translation"], "slot", [["「{tr_short}」は{tolang}でどう書きますか？", "light"], ["「{tr_short}」を{tolang}にしてください。", "light"], ["{tolang}しか話せないお客様にこのメッセージを送りたいです：\n\n{contact}", "standard"], ["この文章の{tolang}版を、同じトーンで：\n{article}", "standard"], ["日本語から{tolang}へ：{tr_short}", "light"]], 15),
  fam("ja.creative.more", ["creative"], "slot", [["{topic}についての短い寓話を作って。", "light"], ["{topic}をテーマにした歌詞を書いて。", "standard"], ["{topic}にまつわる怖い話をして。", "standard"], ["{topic}について百字以内のショートショートを。", "light"]], 12),
  // Issue 15, third pass: summaries, extractions and translations over pasted text asked in other words.
  fam("ja.sum.third", ["summarization"], "standard", ["この文章の短いバージョンをください：\n\n{article}", "{article}\n\n二文で言うとどうなりますか？", "読む時間がありません。何が書いてありますか？\n\n{article}", "下の文章の簡単な概要をニュースレター用に書いてください。\n\n{article}"], 16),
  fam("ja.extract.third", ["extraction"], "standard", ["このメッセージに出てくる日付と時刻を一覧にしてください。\n\n{contact}", "{contact}\n\nここから名前と電話番号だけ拾ってください。", "このメールから差出人・宛先・日付・金額を JSON にしてください。\n\n{contact}", "下の文章に出てくる組織と金額をすべて書き出して。\n\n{article}"], 16),
  fam("ja.tr.third", ["translation"], "slot", [["この文章を取引先向けに{tolang}にしてもらえますか？\n\n{article}", "standard"], ["{contact}\n\nこれを{tolang}で返してください。", "standard"], ["次の文章の{tolang}版が必要です。名前はそのままで：\n\n{contact}", "standard"], ["これを{tolang}で何と言えばいいか教えて：「{tr_short}」", "light"]], 16),
  // Issue 15, fourth pass (docs/routing.md, "The corpus"): summaries and extractions asked in general
  // shapes, and near-misses (reasoning about a text, a creative rewrite, a translation). Appended.
  fam("ja.sum.fourth", ["summarization"], "standard", [
    "結局、何が言いたいのですか？\n\n{note}",
    "{note}\n\n要するに？",
    "下の文章を 50 字以内に縮めてください。\n\n{note}",
    "{article}\n\nチームのチャットに貼れる箇条書きを三つください。",
    "要点だけお願いします：\n{note}",
    "これは何についての話ですか？一行で。\n\n{note}",
    "大事なところを落とさずに、一段落に縮められますか？\n\n{article}",
    "{contact}\n\n一文でまとめてください。",
  ], 20),
  fam("ja.sum.inline", ["summarization"], "light", [
    "手短にお願いします：顧客が出張中なので会議は金曜に変更、予算の見直しは来月に延期。",
    "このレビューを短くまとめて：カメラは最高、バッテリーは昼までもたない、アプリは使いにくい、値段は妥当。",
    "一、二文で：ウィーン会議は何を話し合ったのですか？",
  ], 3),
  fam("ja.extract.fourth", ["extraction"], "standard", [
    "この文章から、名前、日付、金額、件名のフィールドを持つ JSON を返してください：\n\n{note}",
    "{note}\n\nどの日付が出てきますか？リストだけで。",
    "文中の金額をすべて挙げ、それぞれ何の金額か書いてください：\n{note}",
    "ここに出てくる人物と、それぞれの役割は？\n\n{note}",
    "期限、電話番号、担当者だけ抜き出して。ほかはいりません：\n\n{note}",
    "{contact}\n\n名前と日付を二列の表にしてください。",
    "{note}\n\nどんな番号が出てきて、それぞれ何を表していますか？",
    "構造化データにしてください（キー：誰、何、いつ、どこ）：\n{note}",
  ], 20),
  fam("ja.extract.inline", ["extraction"], "light", [
    "次の文から日付と時刻を取り出して：「歯医者は 5 月 14 日（水）9:40 に変更」",
    "この文のメールアドレスはどれ？「レナには lena.k@mail.example か受付で連絡できます」",
    "それぞれの文を質問か平叙文かに分類して：「雨降ってる？」「早く帰った。」「鍵はどこ？」",
  ], 3),
  fam("ja.reason.text", ["reasoning"], "standard", [
    "{note}\n\nここで不公平な扱いを受けている人はいますか？両方の立場から論じてください。",
    "この文章の結論は、挙げられた根拠から導けますか？理由も説明してください。\n\n{article}",
    "{note}\n\nこの計画には誰も触れていないリスクがありますか？どれが一番重大ですか？",
    "これを読んで、お得かどうか、その理由も教えて：\n\n{note}",
  ], 8),
  fam("ja.creative.rewrite", ["creative"], "standard", [
    "この文章を短い韻を踏んだ詩にしてください：\n\n{note}",
    "{note}\n\nこれを映画の予告編のドラマチックなナレーション風に書き直して。",
    "次の内容を五歳の子ども向けの寝る前のお話として語ってください：\n{article}",
  ], 8),
  fam("ja.tr.fourth", ["translation"], "standard", [
    "{note}\n\n{tolang}でお願いします。",
    "この文章を{tolang}に逐語的にしてください：\n\n{note}",
    "下の文章をサポートチーム向けに{tolang}に翻訳してください。\n\n{note}",
  ], 8),
  fam("ja.sum.ask", ["summarization"], "standard", [
    "上司向けに、これの主な結論をまとめてもらえますか？\n\n{article}",
    "{note}\n\n忙しい同僚に話すつもりで、手短に説明して。",
    "次の文章の主なポイントを箇条書きでいくつか挙げてください：\n{note}",
    "{article}\n\nつまり、どういうことですか？わかりやすく。",
  ], 12),
  fam("ja.extract.ask", ["extraction"], "standard", [
    "何がいつまでで、いくらかかりますか？この文章だけを根拠に答えてください。\n\n{contact}",
    "{note}\n\nやることリストを、それぞれの担当者つきで出して。",
    "どの会社や団体が出てきますか？名前だけで。\n\n{note}",
    "{contact}\n\nここから電話番号とメールアドレスだけ欲しいです。",
  ], 12),
  fam("ja.sum.main", ["summarization"], "standard", [
    "この文章の主旨は何ですか？\n\n{note}",
    "{article}\n\n知っておくべき大事なことは書いてありますか？短くお願いします。",
    "これを 30 字以内に凝縮してください：\n{note}",
    "{note}\n\nざっと言うと何の話？",
  ], 12),
  fam("ja.extract.find", ["extraction"], "standard", [
    "次の文章から日付と期限をすべて見つけて、ISO 形式で書いてください：\n\n{note}",
    "{note}\n\n合計金額はいくらで、何の費用ですか？",
    "主な事実をフィールドと値の JSON リストとして抽出してください：\n{contact}",
  ], 9),
  fam("ja.general.reply", [], "standard", [
    "このメッセージへの丁寧な返信を書いてください：\n\n{note}",
    "{contact}\n\nこれへの返事を、感じよく短めに下書きして。",
  ], 4),
  fam("ja.reason.text2", ["reasoning"], "standard", [
    "{note}\n\nこれは妥当ですか？よく考えて、私の立場ならどうするか教えてください。",
    "この文章から判断すると、どちらの選択肢が私たちにとって良いですか？理由も。\n\n{article}",
  ], 6),
];
