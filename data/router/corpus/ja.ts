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
];
