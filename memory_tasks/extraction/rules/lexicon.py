"""The item lexicon: the things users like, avoid, own or aim for, named in both languages.

An item the lexicon knows gets one slug whatever the language ("奶茶" and "milk tea" are both
milk-tea), which is what lets a Chinese retirement meet an English preference on one key.
"""

from __future__ import annotations

import re

from memory_tasks.text import HAN_CHAR

# (slug, category, surface forms in both languages). Categories prefix preference keys.
LEXICON: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("sichuan-cuisine", "food", ("川菜", "sichuan food", "sichuan cuisine", "szechuan food")),
    ("cantonese-cuisine", "food", ("粤菜", "cantonese food")),
    ("thai-food", "food", ("泰国菜", "thai food")),
    ("hotpot", "food", ("火锅", "hotpot", "hot pot")),
    ("spicy-food", "food", ("辣", "辣的", "吃辣", "辛辣", "无辣不欢", "spicy food", "spicy")),
    ("salty-food", "food", ("咸", "太咸", "salty food")),
    ("sweets", "food", ("甜食", "甜点", "甜品", "甜的", "甜", "sweets", "desserts", "sweet things")),
    ("offal", "food", ("内脏", "下水", "动物内脏", "offal", "organ meat", "organ meats")),
    ("cilantro", "food", ("香菜", "cilantro", "coriander")),
    ("seafood", "food", ("海鲜", "seafood")),
    ("pork", "food", ("猪肉", "pork")),
    ("beef", "food", ("牛肉", "beef")),
    ("chicken", "food", ("鸡肉", "chicken", "poultry")),
    ("lamb", "food", ("羊肉", "lamb", "mutton")),
    ("red-meat", "food", ("红肉", "red meat")),
    ("meat", "food", ("肉", "吃肉", "荤", "荤菜", "meat")),
    ("barbecue", "food", ("烤肉", "烧烤", "撸串", "barbecue", "bbq")),
    ("fruit", "food", ("水果", "fruit", "fruits")),
    ("vegetables", "food", ("蔬菜", "青菜", "素菜", "vegetables", "veggies")),
    ("noodles", "food", ("面条", "面", "拉面", "noodles", "ramen")),
    ("dumplings", "food", ("饺子", "dumplings")),
    ("breakfast", "food", ("早饭", "早餐", "breakfast")),
    ("chocolate", "food", ("巧克力", "chocolate")),
    ("pizza", "food", ("披萨", "pizza")),
    ("sushi", "food", ("寿司", "sushi")),
    ("banana", "food", ("香蕉", "banana", "bananas")),
    ("durian", "food", ("榴莲", "durian")),
    ("watermelon", "food", ("西瓜", "watermelon")),
    ("strawberry", "food", ("草莓", "strawberry", "strawberries")),
    ("fast-food", "food", ("快餐", "垃圾食品", "fast food", "junk food")),
    ("milk-tea", "drink", ("奶茶", "milk tea", "bubble tea", "boba")),
    ("cold-drinks", "drink", ("冰的", "冰", "冷饮", "冰饮", "喝冰的", "iced drinks", "cold drinks")),
    ("soft-drinks", "drink", ("饮料", "碳酸饮料", "汽水", "soft drinks", "soda", "fizzy drinks", "sugary drinks")),
    # Before soda: "sparkling water instead of soda" is the water drunk.
    ("sparkling-water", "drink", ("气泡水", "苏打水", "sparkling water", "seltzer", "soda water", "fizzy water")),
    ("kombucha", "drink", ("康普茶", "kombucha")),
    ("yogurt", "drink", ("酸奶", "yogurt", "yoghurt")),
    ("oolong-tea", "drink", ("乌龙茶", "乌龙", "oolong", "oolong tea")),
    ("green-tea", "drink", ("绿茶", "green tea")),
    ("puer-tea", "drink", ("普洱茶", "普洱", "pu-erh", "pu'er", "puer")),
    ("white-tea", "drink", ("白茶", "white tea")),
    ("black-tea", "drink", ("红茶", "black tea")),
    ("tea", "drink", ("茶", "喝茶", "tea")),
    ("cola", "drink", ("可乐", "coke", "cola")),
    ("beer", "drink", ("啤酒", "beer")),
    ("juice", "drink", ("果汁", "juice")),
    ("milk", "drink", ("牛奶", "milk")),
    # Milks of a plant are drinks of their own: 「只喝燕麦奶」 is no liking of cow's milk.
    ("oat-milk", "drink", ("燕麦奶", "oat milk", "oatmilk")),
    ("soy-milk", "drink", ("豆浆", "豆奶", "soy milk", "soymilk")),
    ("almond-milk", "drink", ("杏仁奶", "almond milk")),
    ("red-wine", "drink", ("红酒", "红葡萄酒", "red wine")),
    ("coffee", "drink", ("咖啡", "美式", "拿铁", "coffee", "americano", "latte")),
    ("alcohol", "drink", ("酒", "喝酒", "酒精", "alcohol", "drinking", "booze")),
    ("smoking", "habit", ("烟", "抽烟", "吸烟", "smoking", "cigarettes", "smoke")),
    # A night owl stays up late: 「我是夜猫子」 and 「我不熬夜了」 meet on one key. 「睡得很晚」 is said
    # with a degree word inside it, so each form is listed (the table's sleep rule reads them).
    (
        "staying-up-late",
        "habit",
        (
            "熬夜",
            "晚睡",
            "夜猫子",
            "睡得晚",
            "睡得很晚",
            "睡得特别晚",
            "睡得比较晚",
            "睡得挺晚",
            "睡得超晚",
            "很晚睡",
            "很晚才睡",
        )
        + ("staying up late", "night owl", "night person", "stay up late", "stay up really late", "stay up very late")
        + (
            "stay up super late",
            "stay up pretty late",
            "go to bed late",
            "go to bed really late",
            "go to bed very late",
        ),
    ),
    ("early-rising", "habit", ("早起", "早睡早起", "early bird", "early riser", "morning person")),
    # Not "sleep in the morning" (when a night-shift worker sleeps).
    ("sleeping-in", "habit", ("睡懒觉", "赖床", "sleeping in", "sleep in on")),
    # The daily routine at a time (「我每天早上六点起床」, "I usually wake up at 6"): `builders.timed_habit`
    # keys them preference-<slug> in both languages.
    ("wake-up", "routine", ("起床", "起", "wake up", "get up")),
    ("bedtime", "routine", ("睡觉", "上床睡觉", "睡", "go to bed", "go to sleep")),
    # Pastimes: with a frequency word they are habits (「周末一般在家打游戏」, `builders.habit`).
    # The bare objects too (游戏, 书, 电影): 「喜欢看书」's item is 书 once its verb is cut. A bare
    # medium names the slot only as the whole item (WHOLE_ITEM_FORMS below).
    ("video-games", "habit", ("打游戏", "玩游戏", "打电动", "游戏", "电子游戏", "video games", "gaming")),
    ("reading", "habit", ("看书", "读书", "阅读", "书", "reading", "reading books", "books")),
    ("novels", "habit", ("小说", "看小说", "读小说", "novels", "novel")),
    ("movies", "habit", ("电影", "看电影", "movies", "films", "watching movies")),
    ("music", "habit", ("音乐", "听音乐", "听歌", "music", "listening to music")),
    ("flowers", "habit", ("养花", "种花", "花", "鲜花", "花草", "flowers")),
    ("gardening", "habit", ("园艺", "gardening")),
    ("dancing", "habit", ("跳舞", "dancing")),
    ("painting", "habit", ("画画", "绘画", "painting", "drawing")),
    ("singing", "habit", ("唱歌", "唱k", "k歌", "singing", "karaoke")),
    ("traveling", "habit", ("旅游", "旅行", "traveling", "travelling", "travel")),
    ("fishing", "habit", ("钓鱼", "fishing")),
    ("shopping", "habit", ("逛街", "街", "购物", "shopping")),
    ("coding", "habit", ("写代码", "编程", "coding", "programming", "code", "to code")),
    ("anime", "tv", ("动漫", "动画片", "anime")),
    ("variety-shows", "tv", ("综艺", "综艺节目", "variety shows")),
    ("cannot-swim", "trait", ("不会游泳", "can't swim", "cannot swim")),
    ("does-not-drive", "trait", ("不会开车", "don't drive", "do not drive", "can't drive", "cannot drive")),
    ("cooking", "habit", ("做饭", "做菜", "下厨", "烹饪", "厨艺", "cooking", "to cook")),
    ("photography", "habit", ("摄影", "拍照", "photography")),
    (
        "packed-lunch",
        "habit",
        ("带饭", "带午饭", "带便当", "packed lunch", "pack my lunch", "pack a lunch", "bring my lunch", "bring lunch"),
    ),
    ("pottery", "habit", ("陶艺", "做陶艺", "pottery class", "pottery", "ceramics")),
    ("crossword", "habit", ("填字游戏", "crossword puzzles", "crossword puzzle", "crosswords", "crossword")),
    ("journaling", "habit", ("写日记", "记日记", "journaling", "journal")),
    ("jubensha", "habit", ("剧本杀",)),
    ("cold-shower", "habit", ("冲冷水澡", "洗冷水澡", "冷水澡", "cold showers", "cold shower")),
    ("foot-soak", "habit", ("泡脚", "泡个脚")),
    ("meditation", "habit", ("冥想", "打坐", "meditation", "meditate", "meditating")),
    ("nap", "habit", ("午睡", "睡午觉", "午休", "nap", "naps", "napping")),
    ("calligraphy", "habit", ("书法", "练字", "毛笔字", "calligraphy")),
    ("mahjong", "habit", ("打麻将", "搓麻将", "麻将", "mahjong")),
    ("baking", "habit", ("烘焙", "做面包", "烤面包", "baking", "bake", "bakes")),
    ("meal-prep", "habit", ("备餐", "meal prep", "meal prepping", "meal-prep", "prep my meals")),
    ("skateboarding", "sport", ("滑板", "玩滑板", "skateboarding")),
    ("chess", "habit", ("国际象棋", "象棋", "下棋", "棋", "chess")),
    ("scrabble", "habit", ("拼字游戏", "scrabble")),
    ("jazz", "music", ("爵士", "爵士乐", "jazz")),
    ("classical-music", "music", ("古典音乐", "古典乐", "classical music", "classical")),
    ("soul-music", "music", ("灵魂乐", "soul", "soul music")),
    ("rock-music", "music", ("摇滚", "rock music")),
    ("piano", "music", ("钢琴", "piano", "pianist")),
    ("guitar", "music", ("吉他", "guitar", "guitarist")),
    ("hulusi", "music", ("葫芦丝", "hulusi")),
    ("cello", "music", ("大提琴", "cello", "cellist")),
    ("guzheng", "music", ("古筝", "guzheng")),
    ("erhu", "music", ("二胡", "erhu")),
    ("pipa", "music", ("琵琶", "pipa")),
    ("violin", "music", ("小提琴", "violin", "violinist")),
    ("ukulele", "music", ("尤克里里", "ukulele")),
    ("bowling", "sport", ("保龄球", "打保龄球", "bowling", "bowl", "bowling league")),
    ("running", "sport", ("跑步", "晨跑", "夜跑", "慢跑", "running", "jogging", "run", "runs", "jogs")),
    ("walking", "sport", ("散步", "健步走", "万步", "walking", "a walk", "walks", "steps a day")),
    ("basketball", "sport", ("篮球", "打篮球", "basketball")),
    ("football", "sport", ("足球", "踢足球", "踢球", "soccer", "football")),
    ("badminton", "sport", ("羽毛球", "打羽毛球", "badminton")),
    ("table-tennis", "sport", ("乒乓球", "打乒乓球", "table tennis", "table-tennis", "ping pong")),
    ("tennis", "sport", ("网球", "打网球", "tennis")),
    ("golf", "sport", ("高尔夫球", "高尔夫", "打高尔夫", "golf", "golfing")),
    ("hiking", "sport", ("爬山", "徒步", "hiking", "hikes", "hike")),
    ("rock-climbing", "sport", ("攀岩", "rock climbing", "climbing", "bouldering")),
    ("skiing", "sport", ("滑雪", "skiing")),
    ("ice-hockey", "sport", ("冰球", "打冰球", "ice hockey", "hockey")),
    ("field-hockey", "sport", ("曲棍球", "field hockey")),
    ("surfing", "sport", ("冲浪", "surfing", "surf")),
    ("ultimate-frisbee", "sport", ("飞盘", "玩飞盘", "打飞盘", "ultimate frisbee", "frisbee")),
    ("billiards", "sport", ("台球", "桌球", "打台球", "billiards", "snooker")),
    ("boxing", "sport", ("拳击", "练拳击", "打拳击", "boxing")),
    # Before rowing: 「划皮划艇」 is kayaking, not 划艇.
    ("kayaking", "sport", ("皮划艇", "划皮划艇", "kayaking", "kayak")),
    ("paddleboarding", "sport", ("SUP桨板", "桨板", "paddleboarding", "paddle boarding", "stand-up paddleboarding")),
    ("rowing", "sport", ("赛艇", "划艇", "rowing")),
    ("gym", "sport", ("健身房", "健身", "撸铁", "gym", "working out", "weightlifting")),
    ("swimming", "sport", ("游泳", "swimming", "swims", "swim")),
    ("yoga", "sport", ("瑜伽", "yoga")),
    ("pilates", "sport", ("普拉提", "pilates")),
    ("cycling", "sport", ("骑行", "骑车", "cycling", "biking", "bike rides", "bike ride")),
    ("half-marathon", "sport", ("半马", "半程马拉松", "half marathon")),
    ("marathon", "sport", ("马拉松", "全马", "marathon")),
    ("triathlon", "sport", ("铁人三项", "triathlon", "ironman")),
    ("camping", "sport", ("露营", "camping")),
    # Exercise in general (「早上运动」); a named sport above is longer and found first.
    ("exercise", "sport", ("运动", "锻炼", "exercise", "exercising")),
    ("sci-fi-movies", "movie", ("科幻电影", "科幻片", "sci-fi movies", "science fiction movies")),
    (
        "sci-fi-novels",
        "book",
        ("科幻小说", "sci-fi novels", "sci-fi books", "science fiction novels", "science fiction books"),
    ),
    (
        "mystery-novels",
        "book",
        (
            "推理小说",
            "悬疑小说",
            "侦探小说",
            "mystery novels",
            "mystery books",
            "mysteries",
            "detective novels",
            "detective stories",
            "crime novels",
            "whodunits",
        ),
    ),
    ("podcasts", "media", ("播客", "podcast", "podcasts")),
    ("audiobooks", "media", ("有声书", "听书", "audiobook", "audiobooks")),
    ("short-videos", "media", ("抖音", "快手", "短视频", "刷视频", "tiktok", "douyin", "short videos")),
    ("horror-movies", "movie", ("恐怖片", "恐怖电影", "horror movies", "horror films", "horror")),
    ("korean-dramas", "tv", ("韩剧", "korean dramas", "k-dramas")),
    ("cafes", "place", ("咖啡馆", "咖啡厅", "cafes", "coffee shops")),
    ("crowds", "place", ("人多", "人多的地方", "crowded places", "crowds")),
    ("flying", "travel", ("坐飞机", "飞机", "flying")),
    ("high-speed-rail", "travel", ("高铁", "high-speed rail", "bullet train")),
    ("wechat", "app", ("微信", "wechat")),
    ("alipay", "app", ("支付宝", "alipay")),
    ("email", "app", ("邮件", "email")),
    # Where the user likes to sit on a plane or a train: one seat, so a window seat said after an
    # aisle seat replaces it, and 「靠窗的位置」 and "window seats" meet on one key.
    (
        "seat",
        "travel",
        (
            *("靠窗", "靠窗的位置", "靠窗的座位", "window seat", "window seats"),
            *("靠过道", "靠走廊", "过道的位置", "aisle seat", "aisle seats"),
        ),
    ),
    ("android", "device", ("安卓", "android")),
    ("iphone", "device", ("iphone", "苹果手机")),
    ("mac", "device", ("mac", "macbook", "苹果电脑")),
    ("windows", "device", ("windows", "windows电脑", "win10", "win11")),
    ("windows", "device", ("windows",)),
    ("linux", "device", ("linux",)),
    ("ipad", "device", ("ipad", "苹果平板")),
    ("kindle", "device", ("kindle",)),
    ("thinkpad", "device", ("thinkpad", "联想thinkpad")),
    ("matebook", "device", ("华为matebook", "matebook", "华为笔记本")),
    ("garmin-watch", "device", ("佳明手表", "佳明", "garmin watch", "garmin")),
    ("apple-watch", "device", ("苹果手表", "apple watch")),
    ("fitbit", "device", ("fitbit",)),
    ("pixel", "device", ("google pixel phone", "google pixel", "pixel phone", "pixel")),
    # Not the phone: "I love pixel art".
    ("pixel-art", "habit", ("pixel art", "像素画")),
    ("samsung-galaxy", "device", ("samsung galaxy", "galaxy phone", "samsung phone", "三星手机")),
    ("huawei-phone", "device", ("华为手机", "huawei phone")),
    ("xiaomi-phone", "device", ("小米手机", "xiaomi phone")),
    # A colour counts only as the whole item (WHOLE_ITEM_FORMS): "blue cheese" is no colour.
    *(
        (slug, "color", forms)
        for slug, forms in (
            ("red", ("红色", "red")),
            ("blue", ("蓝色", "blue")),
            ("green", ("绿色", "green")),
            ("yellow", ("黄色", "yellow")),
            ("purple", ("紫色", "purple")),
            ("pink", ("粉色", "粉红色", "pink")),
            ("black", ("黑色", "black")),
            ("white", ("白色", "white")),
            ("orange", ("橙色", "橘色", "orange")),
            ("gray", ("灰色", "gray", "grey")),
        )
    ),
    # A liking of an animal is `animal-<slug>`; a pet owned is the fact `pet-<slug>` (keys are unique
    # per user: "I love cats" must not overwrite "Has a cat named Luna").
    (
        "cat",
        "animal",
        (
            "猫",
            "猫咪",
            "橘猫",
            "布偶猫",
            "布偶",
            "英短",
            "美短",
            "暹罗猫",
            "cat",
            "cats",
            "kitten",
            "ragdoll",
            "ragdolls",
            "siamese cat",
            "siamese cats",
        ),
    ),
    (
        "dog",
        "animal",
        (
            "狗",
            "狗狗",
            "柯基",
            "金毛",
            "哈士奇",
            "泰迪",
            "拉布拉多",
            "边牧",
            "柴犬",
            "萨摩耶",
            "比熊",
            "dog",
            "dogs",
            "puppy",
            "golden retriever",
            "golden retrievers",
            "labrador",
            "labradors",
            "husky",
            "huskies",
            "corgi",
            "corgis",
            "poodle",
            "poodles",
            "beagle",
            "beagles",
            "shiba inu",
            "shiba inus",
        ),
    ),
    # The other pets 「我养了一只鹦鹉」 names (`table._ZH_PETS`): pet-parrot, not a key of its wording's hash.
    ("parrot", "animal", ("鹦鹉", "parrot", "parrots")),
    ("rabbit", "animal", ("兔子", "rabbit", "rabbits", "bunny")),
    ("hamster", "animal", ("仓鼠", "hamster", "hamsters")),
    # Before 猫: a chinchilla is no cat.
    ("chinchilla", "animal", ("龙猫", "chinchilla", "chinchillas")),
    ("goldfish", "animal", ("金鱼", "goldfish")),
    ("turtle", "animal", ("乌龟", "turtle", "turtles", "tortoise")),
    ("horse", "animal", ("马", "horse", "horses", "pony", "ponies")),
    ("ferret", "animal", ("雪貂", "ferret", "ferrets")),
    ("bearded-dragon", "animal", ("鬃狮蜥", "bearded dragon", "bearded dragons")),
    ("guinea-pig", "animal", ("豚鼠", "荷兰猪", "guinea pig", "guinea pigs")),
    ("hedgehog", "animal", ("刺猬", "hedgehog", "hedgehogs")),
    ("peanut", "food", ("花生", "peanut", "peanuts")),
    # Allergens said in the plural or the singular ("a nut allergy", "allergic to nuts"): one key.
    ("tree-nut", "food", ("坚果", "nut", "nuts", "tree nut", "tree nuts")),
    ("egg", "food", ("鸡蛋", "egg", "eggs")),
    ("shrimp", "food", ("虾", "虾仁", "shrimp", "prawns")),
    ("shellfish", "food", ("贝类", "shellfish")),
    ("dramas", "tv", ("追剧", "看剧", "电视剧", "剧")),
    ("scallion", "food", ("葱", "葱花", "大葱", "小葱", "scallions", "green onions", "spring onions")),
    ("onion", "food", ("洋葱", "onion", "onions")),
    # Vegetables people most often will not eat (「从小就不碰苦瓜」): a readable key, one in both languages.
    ("bitter-melon", "food", ("苦瓜", "bitter melon", "bitter gourd")),
    ("celery", "food", ("芹菜", "西芹", "celery")),
    ("eggplant", "food", ("茄子", "eggplant", "aubergine")),
    ("carrots", "food", ("胡萝卜", "carrot", "carrots")),
    ("green-peppers", "food", ("青椒", "green pepper", "green peppers", "bell pepper", "bell peppers")),
    ("mushrooms", "food", ("蘑菇", "香菇", "mushroom", "mushrooms")),
    ("coconut", "food", ("椰子", "coconut")),
    ("avocado", "food", ("牛油果", "鳄梨", "avocado", "avocados")),
    ("mayonnaise", "food", ("蛋黄酱", "mayonnaise", "mayo")),
    ("garlic", "food", ("大蒜", "蒜", "蒜头", "garlic")),
    ("ginger", "food", ("生姜", "姜", "ginger")),
    # What a diet keeps out, said as a food: "I don't do dairy or gluten", 「我不吃乳制品」.
    ("dairy", "food", ("乳制品", "奶制品", "dairy", "dairy products")),
    ("msg", "food", ("味精", "MSG", "monosodium glutamate")),
    ("greasy-food", "food", ("油腻的", "油腻", "greasy food", "oily food")),
    ("gluten", "food", ("麸质", "gluten")),
    # What a reply rule keeps out, named in either language (「回答别用感叹号」 and "no exclamation marks" are one rule).
    ("exclamation-marks", "style", ("感叹号", "exclamation marks", "exclamation points", "exclamation mark")),
    ("jargon", "style", ("专业术语", "技术术语", "专业名词", "技术名词", "术语", "行话", "jargon", "technical terms")),
    ("pinyin", "style", ("拼音", "注音", "pinyin")),
    # The user's mistakes corrected (「我说错了请纠正我」, "Please correct my Spanish mistakes"): a rule of its own.
    ("corrections", "style", ("纠正", "指出错误", "correct me", "correct my")),
    # English mixed into Chinese replies: 「回答里不要夹英文」, 「回复不要中英混杂」 (not the reply language itself).
    (
        "mixed-languages",
        "style",
        ("中英混杂", "中英夹杂", "中英混用", "夹英文", "夹杂英文", "掺英文", "混英文", "夹英语", "mixing languages"),
    ),
    ("disclaimers", "style", ("免责声明",)),
    ("assumptions", "style", ("assumptions", "assumption")),
    ("examples", "style", ("例子", "举例", "实例", "examples")),
    ("analogies", "style", ("比喻", "类比", "analogies", "analogy")),
    ("follow-up-questions", "style", ("反问", "追问", "问我问题", "follow-up questions", "follow up questions")),
    ("step-by-step", "style", ("一步一步", "一步步", "分步骤", "step by step", "step-by-step")),
    ("apologies", "style", ("道歉", "apologize", "apologizing", "apologise", "apologising", "apologies", "say sorry")),
    ("red-green-colors", "style", ("红绿配色", "red-green colors", "red and green colors")),
    ("code-comments", "style", ("注释", "代码注释", "code comments")),
    ("cold-food", "food", ("凉的", "凉", "生冷", "冷的", "cold food")),
    ("documentaries", "movie", ("纪录片", "documentaries", "documentary")),
    ("car", "purchase", ("买车", "buy a car")),
    # 公务员 alone (the object of 「备考公务员」) only as the whole item: 「老公是公务员」 is a job.
    (
        "civil-service-exam",
        "exam",
        ("备考公务员", "考公务员", "考公", "公务员考试", "国考", "公务员", "civil service exam"),
    ),
    ("herniated-disc", "health", ("腰椎间盘突出", "腰间盘突出", "椎间盘突出", "herniated disc", "slipped disc")),
    ("hepatitis-b", "health", ("乙肝", "hepatitis b")),
    ("hepatitis-c", "health", ("丙肝", "hepatitis c")),
    ("panic-disorder", "health", ("惊恐障碍", "panic attacks", "panic disorder")),
    ("ptsd", "health", ("创伤后应激障碍", "ptsd")),
    ("ocd", "health", ("ocd",)),
    ("bipolar-disorder", "health", ("双相情感障碍", "bipolar", "bipolar disorder")),
    ("eating-disorder", "health", ("进食障碍", "eating disorder")),
    (
        "hyperthyroidism",
        "health",
        ("甲亢", "甲状腺功能亢进症", "甲状腺功能亢进", "hyperthyroidism", "overactive thyroid"),
    ),
    (
        "hypothyroidism",
        "health",
        ("甲减", "甲状腺功能减退症", "甲状腺功能减退", "hypothyroidism", "underactive thyroid"),
    ),
    ("stomach-ulcer", "health", ("胃溃疡", "stomach ulcer", "ulcer")),
    ("fatty-liver", "health", ("脂肪肝", "fatty liver")),
    ("kidney-stones", "health", ("肾结石", "kidney stones")),
    ("arrhythmia", "health", ("心律不齐", "irregular heartbeat", "arrhythmia")),
    ("rheumatoid-arthritis", "health", ("类风湿关节炎", "类风湿性关节炎", "rheumatoid arthritis")),
    ("lupus", "health", ("红斑狼疮", "lupus")),
    ("parkinsons", "health", ("帕金森", "parkinson's")),
    ("glaucoma", "health", ("青光眼", "glaucoma")),
    ("copd", "health", ("慢阻肺", "copd")),
    ("pacemaker", "health", ("心脏起搏器", "起搏器", "pacemaker")),
    ("insulin-pump", "health", ("胰岛素泵", "insulin pump")),
    ("cochlear-implant", "health", ("人工耳蜗", "cochlear implant")),
    ("stent", "health", ("心脏支架", "支架", "heart stent", "cardiac stent", "stent")),
    # A medical history a suggestion of food, exercise or a drug must weigh: 「我得过心梗」, "I had a stroke".
    ("heart-attack", "health", ("心梗", "心肌梗塞", "心肌梗死", "heart attack")),
    ("stroke", "health", ("中风", "脑中风", "脑梗", "脑卒中", "stroke", "mini-stroke", "TIA")),
    ("cancer", "health", ("癌症", "癌", "cancer")),
    ("heart-bypass", "health", ("心脏搭桥", "搭桥手术", "搭桥", "heart bypass", "bypass surgery")),
    ("surgery", "health", ("手术", "surgery", "operation")),
    ("gout", "health", ("痛风", "gout")),
    ("anemia", "health", ("贫血", "anemia", "anaemia", "anemic", "anaemic")),
    ("mango", "food", ("芒果", "mango", "mangoes", "mangos")),
    ("pineapple", "food", ("菠萝", "凤梨", "pineapple", "pineapples")),
    ("kiwi", "food", ("猕猴桃", "奇异果", "kiwi", "kiwis", "kiwifruit")),
    ("strawberry", "food", ("草莓", "strawberry", "strawberries")),
    ("sesame", "food", ("芝麻", "sesame")),
    ("soy", "food", ("大豆", "黄豆", "豆制品", "soy", "soybeans", "soy products")),
    ("wheat", "food", ("小麦", "wheat")),
    ("fish", "food", ("鱼", "吃鱼", "鱼肉", "fish")),
    ("japanese-food", "food", ("日料", "日本料理", "日本菜", "japanese food", "japanese cuisine")),
    ("raw-food", "food", ("生的", "生", "生食", "raw food", "raw fish")),
    ("penicillin", "medicine", ("青霉素", "penicillin")),
    ("amoxicillin", "medicine", ("阿莫西林", "amoxicillin")),
    ("morphine", "medicine", ("吗啡", "morphine")),
    ("aspirin", "medicine", ("阿司匹林", "aspirin")),
    ("ibuprofen", "medicine", ("布洛芬", "ibuprofen", "advil")),
    ("cephalosporins", "medicine", ("头孢", "头孢类", "cephalosporins", "cephalosporin")),
    ("nsaids", "medicine", ("非甾体抗炎药", "nsaids")),
    ("codeine", "medicine", ("可待因", "codeine")),
    ("sulfa-drugs", "medicine", ("磺胺", "磺胺类药物", "sulfa", "sulfa drugs")),
    ("dust-mites", "allergen", ("尘螨", "螨虫", "dust mites")),
    ("latex", "allergen", ("乳胶", "latex")),
    ("cat-hair", "allergen", ("猫毛", "cat hair", "cat dander")),
    ("pollen", "allergen", ("花粉", "pollen")),
    (
        "lactose-intolerance",
        "health",
        (
            "乳糖不耐受",
            "乳糖不耐",
            "lactose intolerant",
            "lactose intolerance",
            "intolerant to lactose",
            "intolerant of lactose",
        ),
    ),
    (
        "gluten-intolerance",
        "health",
        (
            "麸质不耐受",
            "麸质不耐",
            "gluten intolerant",
            "gluten-intolerant",
            "gluten intolerance",
            "intolerant to gluten",
            "intolerant of gluten",
        ),
    ),
    (
        "hypertension",
        "health",
        ("高血压", "血压高", "血压偏高", "血压有点高", "血压比较高", "hypertension", "high blood pressure"),
    ),
    (
        "high-cholesterol",
        "health",
        ("高血脂", "血脂高", "血脂偏高", "血脂有点高", "血脂比较高", "胆固醇高", "胆固醇偏高", "high cholesterol"),
    ),
    ("high-blood-sugar", "health", ("血糖高", "血糖偏高", "血糖有点高", "high blood sugar")),
    ("hypoglycemia", "health", ("低血糖", "hypoglycemia", "low blood sugar", "hypoglycemic")),
    ("heart-condition", "health", ("心脏病", "冠心病", "心脏不好", "heart condition", "heart disease")),
    ("epilepsy", "health", ("癫痫", "epilepsy", "epileptic")),
    ("depression", "health", ("抑郁症", "抑郁", "depression")),
    ("anxiety-disorder", "health", ("焦虑症", "anxiety")),
    ("adhd", "health", ("多动症", "adhd")),
    ("kidney-disease", "health", ("肾病", "肾不好", "kidney disease", "kidney problems", "ckd")),
    ("eczema", "health", ("湿疹", "eczema")),
    ("heart-murmur", "health", ("心脏杂音", "heart murmur")),
    ("thyroid-nodules", "health", ("甲状腺结节", "thyroid nodule", "thyroid nodules")),
    ("gallstones", "health", ("胆结石", "gallstones")),
    ("pots", "health", ("pots",)),
    ("tinnitus", "health", ("耳鸣", "tinnitus")),
    ("immunocompromised", "health", ("免疫力低下", "免疫缺陷", "immunocompromised")),
    (
        "transplant",
        "health",
        (
            "肾移植",
            "肝移植",
            "心脏移植",
            "肺移植",
            "kidney transplant",
            "liver transplant",
            "heart transplant",
            "lung transplant",
        ),
    ),
    ("allergy-prone", "health", ("过敏体质", "allergy-prone", "allergy prone", "prone to allergies")),
    # Before anemia: 「地中海贫血」 is not 「贫血」.
    ("thalassemia", "health", ("地中海贫血", "地贫", "thalassemia", "thalassaemia")),
    (
        "raynauds",
        "health",
        (
            "雷诺综合征",
            "雷诺氏症",
            "雷诺病",
            "raynaud's",
            "raynaud's syndrome",
            "raynaud's phenomenon",
            "raynaud's disease",
        ),
    ),
    ("rosacea", "health", ("玫瑰痤疮", "酒渣鼻", "rosacea")),
    ("sciatica", "health", ("坐骨神经痛", "sciatica")),
    ("psoriasis", "health", ("银屑病", "牛皮癣", "psoriasis")),
    ("bad-back", "health", ("腰不好", "bad back")),
    ("bad-knees", "health", ("膝盖不好", "bad knees", "bad knee")),
    ("wheelchair", "health", ("轮椅", "wheelchair")),
    ("hearing-aid", "health", ("助听器", "hearing aid", "hearing aids")),
    ("walking-aid", "health", ("拐杖", "cane", "walker", "crutches")),
    ("celiac-disease", "health", ("乳糜泻", "celiac disease", "coeliac disease", "celiac", "coeliac")),
    ("prediabetic", "health", ("糖尿病前期", "prediabetes", "pre-diabetes", "prediabetic", "pre-diabetic")),
    ("diabetes", "health", ("糖尿病", "diabetes", "diabetic")),
    ("tenosynovitis", "health", ("腱鞘炎", "tenosynovitis", "de quervain's")),
    ("urticaria", "health", ("慢性荨麻疹", "荨麻疹", "chronic hives", "hives", "urticaria")),
    ("asthma", "health", ("哮喘", "过敏性哮喘", "asthma", "asthmatic")),
    ("left-handed", "trait", ("左撇子", "惯用左手", "习惯用左手", "left-handed", "a lefty")),
    ("impatient", "trait", ("急性子",)),
    ("unhurried", "trait", ("慢性子",)),
    ("poor-sense-of-direction", "trait", ("路痴", "no sense of direction", "bad sense of direction")),
    ("social-anxiety", "trait", ("社恐", "socially anxious", "social anxiety")),
    ("sensitive-to-cold", "trait", ("怕冷", "sensitive to cold")),
    ("sensitive-to-heat", "trait", ("怕热", "sensitive to heat")),
    ("motion-sickness", "trait", ("晕车", "晕船", "carsick", "seasick", "motion sickness")),
    # Medication: one key per drug in both languages (`medication-<slug>`).
    (
        "blood-pressure-medication",
        "medication",
        (
            "降压药",
            "blood pressure medication",
            "blood pressure meds",
            "blood pressure pills",
            "blood pressure medicine",
        ),
    ),
    (
        "diabetes-medication",
        "medication",
        ("降糖药", "diabetes medication", "diabetes meds", "diabetes pills", "diabetes medicine"),
    ),
    ("metformin", "medication", ("二甲双胍", "metformin")),
    ("insulin", "medication", ("胰岛素", "insulin")),
    ("blood-thinners", "medication", ("抗凝药", "华法林", "blood thinners", "warfarin")),
    ("antidepressants", "medication", ("抗抑郁药", "antidepressants")),
    ("folic-acid", "medication", ("叶酸", "folic acid")),
    ("vitamin-d", "medication", ("维生素d", "维他命d", "vitamin d", "vitamin d3")),
    ("vitamin-b12", "medication", ("维生素b12", "vitamin b12", "b12")),
    ("vitamin-c", "medication", ("维生素c", "维他命c", "vitamin c")),
    # 「吃鱼油」 before 吃鱼 (fish eaten).
    ("fish-oil", "medication", ("吃鱼油", "鱼油", "fish oil", "omega-3", "omega-3s")),
    ("melatonin", "medication", ("褪黑素", "melatonin")),
    ("calcium", "medication", ("钙片", "calcium")),
    ("prenatal-vitamins", "medication", ("孕妇维生素", "prenatal vitamins")),
    # A drug for one condition said with the general word, as its own key: "heart medication" is not
    # "seizure medication" (both were `medication-medicine`, the plain word's, and one overwrote the other).
    ("heart-medication", "medication", ("心脏病药", "heart medication", "heart meds", "heart pills", "heart medicine")),
    (
        "seizure-medication",
        "medication",
        ("抗癫痫药", "seizure medication", "seizure meds", "seizure pills", "anti-seizure medication"),
    ),
    ("anxiety-medication", "medication", ("抗焦虑药", "anxiety medication", "anxiety meds", "anxiety pills")),
    ("loratadine", "medication", ("氯雷他定", "loratadine", "claritin")),
    ("cetirizine", "medication", ("西替利嗪", "cetirizine", "zyrtec")),
    ("adhd-medication", "medication", ("adhd medication", "adhd meds", "adhd pills")),
    ("lisinopril", "medication", ("赖诺普利", "lisinopril")),
    ("amlodipine", "medication", ("氨氯地平", "络活喜", "amlodipine")),
    ("losartan", "medication", ("氯沙坦", "科素亚", "losartan")),
    ("metoprolol", "medication", ("美托洛尔", "倍他乐克", "metoprolol")),
    ("atorvastatin", "medication", ("阿托伐他汀", "立普妥", "atorvastatin", "lipitor")),
    ("simvastatin", "medication", ("辛伐他汀", "simvastatin")),
    ("sertraline", "medication", ("舍曲林", "左洛复", "sertraline", "zoloft")),
    ("paroxetine", "medication", ("帕罗西汀", "赛乐特", "paroxetine", "paxil")),
    ("fluoxetine", "medication", ("氟西汀", "百忧解", "fluoxetine", "prozac")),
    ("escitalopram", "medication", ("艾司西酞普兰", "来士普", "escitalopram", "lexapro")),
    (
        "thyroid-medication",
        "medication",
        (
            "优甲乐",
            "甲状腺素",
            "levothyroxine",
            "thyroid medication",
            "thyroid meds",
            "thyroid pills",
            "thyroid medicine",
        ),
    ),
    ("statins", "medication", ("他汀", "statins")),
    ("clopidogrel", "medication", ("氯吡格雷", "波立维", "clopidogrel", "plavix")),
    ("immunosuppressants", "medication", ("免疫抑制剂", "immunosuppressants")),
    ("maoi", "medication", ("maoi", "an maoi", "maois")),
    ("birth-control", "medication", ("避孕药", "birth control")),
    ("stomach-problems", "health", ("胃不好", "胃病", "bad stomach", "a bad stomach", "stomach problems")),
    ("neck-problems", "health", ("颈椎不好", "颈椎病", "neck problems")),
    ("insomnia", "health", ("失眠", "insomnia", "insomniac")),
    ("autism", "health", ("自闭症", "孤独症", "阿斯伯格综合征", "autism", "autistic", "asperger's")),
    ("migraines", "health", ("偏头痛", "migraines", "migraine")),
    ("crohns-disease", "health", ("克罗恩病", "crohn's disease", "crohns disease", "crohn's", "crohns")),
    ("dry-eye", "health", ("干眼症", "干眼", "dry eye syndrome", "dry eyes", "dry eye")),
    ("gastritis", "health", ("慢性胃炎", "胃炎", "gastritis")),
    ("acid-reflux", "health", ("胃食管反流", "反流性食管炎", "胃酸反流", "acid reflux", "gerd")),
    ("hay-fever", "health", ("花粉症", "过敏性鼻炎", "hay fever", "allergic rhinitis")),
    (
        "colorblind",
        "health",
        (
            "色弱",
            "色盲",
            "红绿色盲",
            "colorblind",
            "colourblind",
            "color-blind",
            "colour-blind",
            "color blind",
            "colour blind",
        ),
    ),
    ("epipen", "medication", ("肾上腺素笔", "epipen", "epi-pen", "epinephrine pen", "epinephrine auto-injector")),
    ("inhaler", "medication", ("吸入器", "哮喘喷雾", "inhaler")),
    ("fear-of-dogs", "trait", ("怕狗", "害怕狗", "afraid of dogs", "scared of dogs", "terrified of dogs")),
    (
        "fear-of-heights",
        "trait",
        ("恐高", "afraid of heights", "scared of heights", "terrified of heights", "fear of heights"),
    ),
    (
        "fear-of-flying",
        "trait",
        ("怕坐飞机", "恐飞", "afraid of flying", "scared of flying", "terrified of flying", "fear of flying"),
    ),
    ("claustrophobia", "trait", ("幽闭恐惧症", "幽闭恐惧", "claustrophobic", "claustrophobia")),
    ("trypophobia", "trait", ("密集恐惧症", "密集恐惧", "trypophobia")),
    (
        "fear-of-needles",
        "trait",
        ("怕打针", "晕针", "afraid of needles", "scared of needles", "terrified of needles", "fear of needles"),
    ),
    ("nearsighted", "trait", ("近视", "近视眼", "nearsighted", "near-sighted", "shortsighted", "short-sighted")),
    ("farsighted", "trait", ("远视", "老花", "老花眼", "farsighted", "far-sighted", "longsighted", "long-sighted")),
    ("glasses", "trait", ("眼镜", "戴眼镜", "glasses")),
    ("contact-lenses", "trait", ("隐形眼镜", "contacts", "contact lenses")),
    ("introvert", "trait", ("内向", "introvert", "introverted")),
    ("extrovert", "trait", ("外向", "extrovert", "extroverted")),
    ("jlpt-n1", "exam", ("n1", "jlpt n1", "日语一级")),
    ("jlpt-n2", "exam", ("n2", "jlpt n2", "日语二级")),
    ("jlpt-n3", "exam", ("n3", "jlpt n3", "日语三级")),
    ("ielts", "exam", ("雅思", "ielts")),
    ("cpa", "exam", ("注册会计师", "注会", "cpa")),
    ("cfa", "exam", ("特许金融分析师", "cfa")),
    ("toefl", "exam", ("托福", "toefl")),
    # Chinese professional and civil-service exams, by their full and their everyday names.
    ("construction-engineer-first-class", "exam", ("一级建造师", "一建")),
    ("construction-engineer-second-class", "exam", ("二级建造师", "二建")),
    ("bar-exam", "exam", ("法考", "司法考试", "法律职业资格考试", "bar exam")),
    ("teaching-certificate", "exam", ("教资", "教师资格证", "教师资格考试")),
    ("civil-service-exam", "exam", ("考公", "公务员考试", "国考", "省考", "civil service exam")),
    # 「考上研究生了」 reaches 「我在准备考研」.
    # 读研 is reached by 考上研究生, as 考研 is: one goal, whichever way the user says it.
    ("grad-school-exam", "exam", ("考研", "研究生考试", "研究生", "读研", "读硕士", "grad school", "graduate school")),
    ("phd", "exam", ("读博", "读博士", "phd", "doctorate")),
    ("mba", "exam", ("读mba", "mba", "emba")),
    ("gaokao", "exam", ("高考", "gaokao", "college entrance exam")),
    (
        "drivers-license",
        "exam",
        # 「我在学车」 and "I'm learning to drive" are the goal a driver's license reaches.
        ("驾照", "驾驶证", "学开车", "学车", "driver's license", "drivers license", "driving license", "driving test")
        + ("learn to drive", "learning to drive"),
    ),
    ("japanese", "language", ("日语", "日文", "japanese")),
    ("spanish", "language", ("西班牙语", "spanish")),
    ("american-sign-language", "language", ("美国手语", "american sign language", "american sign", "asl")),
    ("english", "language", ("英语", "英文", "english")),
    # Named in Chinese only: the English name keys itself the same ("I'm learning French": goal-french),
    # and as a lexicon word would take "French food" or "Korean dramas" for the language.
    ("french", "language", ("法语", "法文")),
    ("korean", "language", ("韩语", "韩文")),
    ("german", "language", ("德语", "德文")),
    ("russian", "language", ("俄语",)),
    ("italian", "language", ("意大利语",)),
    ("portuguese", "language", ("葡萄牙语",)),
    ("cantonese", "language", ("粤语",)),
    ("arabic", "language", ("阿拉伯语",)),
    ("japan", "place", ("日本", "japan")),
    ("antarctica", "place", ("南极", "antarctica")),
    ("house", "purchase", ("买房", "首付", "房子", "新房", "buy a house", "house")),
    ("savings", "money", ("存钱", "攒钱", "存款", "存十万", "存够", "攒够", "save money", "saving money", "savings")),
    (
        "relocation",
        "move",
        ("换个城市", "换城市", "去别的城市", "move to another city", "move to a new city", "relocate"),
    ),
    (
        "intermittent-fasting",
        "habit",
        ("轻断食", "间歇性断食", "16:8断食", "intermittent fasting", "16:8 fasting", "fasting"),
    ),
    (
        "job-change",
        "work",
        (
            "换工作",
            "跳槽",
            "找新工作",
            "找工作",
            "change jobs",
            "switch jobs",
            "a new job",
            "find a new job",
            "find a job",
            "looking for a job",
            "job hunting",
        ),
    ),
    (
        "budget-travel",
        "habit",
        (
            *("穷游", "budget travel", "budget traveler", "budget traveller", "travel on a budget"),
            *("travel on a tight budget", "travel on a shoestring", "travel cheap", "travel cheaply"),
        ),
    ),
    ("career-change", "work", ("转行", "换行业", "change careers", "switch careers", "career change")),
    # Topics a user asks never to be brought up (「不要提我前任」, "Don't mention my ex"): one rule key in both languages.
    (
        "ex",
        "topic",
        ("前任", "前妻", "前夫", "前男友", "前女友", "ex", "ex-wife", "ex-husband", "ex-boyfriend", "ex-girlfriend"),
    ),
    ("divorce", "topic", ("离婚", "divorce")),
    ("body-weight", "topic", ("体重", "my weight")),
    ("weight-loss", "health", ("减肥", "减重", "瘦身", "lose weight", "weight loss")),
    ("sugar", "food", ("控糖", "戒糖", "糖", "sugar")),
    ("caffeine", "drink", ("caffeine", "咖啡因")),
    ("rain", "weather", ("下雨", "雨天", "rain", "rains", "raining")),
    ("umbrella", "item", ("带伞", "雨伞", "umbrella")),
    ("restaurants", "place", ("餐厅", "饭店", "饭馆", "馆子", "吃饭的地方", "restaurant", "restaurants")),
    ("recipes", "item", ("菜谱", "食谱", "recipe", "recipes")),
    ("meals", "item", ("meal", "meals")),
    ("calories", "item", ("卡路里", "热量", "calories")),
    ("technical-questions", "item", ("技术问题", "technical questions")),
    (
        "conclusion-first",
        "item",
        ("先给结论", "先说结论", "先讲结论", "结论先行", "conclusion first", "the answer first", "answer first"),
    ),
    ("notifications", "item", ("通知", "推送", "消息提醒", "notification", "notifications")),
    ("medicine", "item", ("吃药", "药", "medicine", "medication", "meds", "pills")),
    ("water", "drink", ("喝水", "水", "drink water", "drinking water")),  # not "water the plants"
)


# Forms too general to name a slot inside a longer item: a pastime by its medium alone (电影,
# music), or one a qualifier turns into another liking. They count only as the whole item:
# 「喜剧电影」 and 「爱情电影」, "pop music" and "country music", "functional programming" and
# "traveling by plane" are likings of their own, not one slot that the second would overwrite.
# So are a food or drink a qualifier names anew: "apple juice" and "orange juice", 「巧克力牛奶」.
WHOLE_ITEM_FORMS = frozenset(
    {
        *("游戏", "书", "小说", "电影", "音乐", "花", "鲜花", "花草", "编程", "绘画"),
        *("reading", "books", "novels", "movies", "films", "music", "flowers", "painting", "drawing", "programming"),
        *("coding", "code", "to code", "travel", "traveling", "travelling", "shopping", "singing", "dancing"),
        *("果汁", "牛奶", "巧克力", "juice", "milk", "chocolate"),
        *("红色", "蓝色", "绿色", "黄色", "紫色", "粉色", "粉红色", "黑色", "白色", "橙色", "橘色", "灰色"),
        *("red", "blue", "green", "yellow", "purple", "pink", "black", "white", "orange", "gray", "grey"),
        # A trait names the user only as the whole item: 「不喜欢急性子的人」 is about other people.
        *("急性子", "慢性子", "路痴", "社恐", "怕冷", "怕热", "晕车", "晕船", "恐高", "怕狗", "害怕狗"),
        "公务员",
    }
)


# Chinese forms that are another word after these characters: 「每晚睡觉前」 holds 晚睡 (staying up late) across two words.
_NOT_AFTER = {"晚睡": "每今昨前当那"}
# English forms that are another word before these: "parking runs me $12 a day" costs, it is no run.
_NOT_BEFORE = dict.fromkeys(("run", "runs"), r"(?!\s+(?:me|us|you|them)\b)")
# English forms that are another word after these: "…a Prusa MK4, and it runs most weekends" is a machine at work.
_NOT_AFTER_EN = dict.fromkeys(("run", "runs", "running"), r"(?<!\bit )(?<!\bit's )(?<!\bthat )(?<!\bwhich )")


def _build_lexicon_index() -> list[tuple[str, re.Pattern[str], str, str]]:
    """(surface form, its pattern, slug, category), longest surface first so "乌龙茶" beats "茶".

    A Chinese form matches anywhere; an English form only as whole words.
    """
    rows = []
    for slug, category, terms in LEXICON:
        for term in terms:
            folded = term.casefold()
            escaped = re.escape(folded)
            # Not "gluten" in "gluten-free", "sugar" in "sugar-free": what a food is free of is not the food; nor "beer"
            # in "beer-league hockey", a league of amateurs.
            league = r"|[- ]league\b" if category in ("food", "drink") else ""
            after = f"(?<![{_NOT_AFTER[folded]}])" if folded in _NOT_AFTER else ""
            pattern = re.compile(
                after + escaped
                if HAN_CHAR.match(folded)
                else _NOT_AFTER_EN.get(folded, "")
                + rf"(?<![a-z0-9]){escaped}(?![a-z0-9]|-free\b{league})"
                + _NOT_BEFORE.get(folded, "")
            )
            rows.append((folded, pattern, slug, category))
    return sorted(rows, key=lambda row: len(row[0]), reverse=True)


_LEXICON_INDEX = _build_lexicon_index()


def lexicon_entries(text: str) -> list[tuple[str, str]]:
    """(slug, category) of every LEXICON item named in `text`, in order of first mention.

    A one-character Chinese form ("茶", "辣") or a WHOLE_ITEM_FORMS one ("电影", "music") counts only when
    it is the whole text, so "绿茶" is not "茶" and "pop music" is not "music"; English forms
    match whole words.
    """
    return [(slug, category) for slug, category, _ in lexicon_mentions(text)]


def lexicon_mentions(text: str) -> list[tuple[str, str, str]]:
    """`lexicon_entries` with the words of its first mention, casefolded: "Nuts are a no-go" -> tree-nut, "nuts"."""
    folded = text.casefold().strip()
    found: list[tuple[int, str, str, str]] = []
    taken: list[tuple[int, int]] = []
    for term, pattern, slug, category in _LEXICON_INDEX:
        whole_only = term in WHOLE_ITEM_FORMS or (len(term) == 1 and HAN_CHAR.match(term))
        if term not in folded or (whole_only and folded != term):
            continue
        for match in pattern.finditer(folded):
            start, end = match.span()
            if any(start < t_end and t_start < end for t_start, t_end in taken):
                continue
            taken.append((start, end))
            if slug not in (s for _, s, _, _ in found):
                found.append((start, slug, category, folded[start:end]))
    return [(slug, category, said) for _, slug, category, said in sorted(found)]
