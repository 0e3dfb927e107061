"""The rule table: every Chinese and English pattern the rules engine reads, in the order tried.

One rule per line, grouped by what it reads (preferences, goals, projects, facts, constraints).
Rules of one group exclude each other on overlapping text, so table order is meaning: a
retirement is tried before a dislike, a dislike before a like.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from memory_tasks.extraction.candidates import Candidate
from memory_tasks.extraction.rules.builders import (
    LIFELONG_TTL_DAYS,
    ZH_DURATION,
    Build,
    Slot,
    alcohol_kept_from,
    amount_in_digits,
    amount_slot,
    car_named,
    commute_mode,
    count_in_digits,
    date_format,
    device_used,
    diet,
    drinking_limit,
    drunk_instead,
    eating_cutoff,
    family_fact,
    favorite,
    favorite_of_kind,
    floor_number,
    frequency_changed,
    goal,
    goal_changed,
    goal_reached,
    goal_reached_as,
    habit,
    habit_taken_up,
    home_size,
    instrument_years,
    keyed_fact,
    keyed_retirement,
    language_level,
    listed_fact,
    medication_dose,
    medication_switched,
    minutes_said,
    named_diet,
    named_restatement,
    named_retirement,
    per_item,
    project,
    quitting_goal,
    race_best,
    reading_device,
    retirement,
    slot_retirement,
    slots,
    smoking_quit_years_ago,
    standing_rule,
    switched_to,
    taken_with,
    timed_habit,
    work_end,
    work_start,
    zh_alma_mater,
    zh_employer,
    zh_employer_or_kind,
    zh_job_named,
    zh_known_city,
    zh_place,
    zh_school,
)
from memory_tasks.extraction.rules.clauses import (
    EN_DOSE_CHANGED,
    EN_PET_KINDS,
    EN_PRESCRIBER,
    FAMILY,
    ZH_REPLIES_ABOUT,
    Clause,
    Lang,
)
from memory_tasks.extraction.rules.content import ZH_ITEM_VERBS, ZH_NOUNS_OPENING_WITH_AN_ITEM_VERB
from memory_tasks.extraction.rules.keys import goal_key, liking_key, preference_key, project_key, retired_key
from memory_tasks.extraction.rules.lexicon import LEXICON
from memory_tasks.text import EN_ORDINALS, HAN, has_han

# One Chinese character, and one Chinese or Latin letter, inside the patterns below.
ZH = f"[{HAN}]"
ZH_OR_LATIN = f"[{HAN}A-Za-z]"


@dataclass(frozen=True)
class Rule:
    """A pattern on a clause and what to make of a match.

    Rules of one `group` exclude each other on overlapping text, tried in table order, so
    "我不喜欢香菜" is read by the dislike rule and not again by the like rule.
    """

    group: str
    lang: Lang
    pattern: re.Pattern[str]
    build: Build
    standing: bool = False  # may be read from a one-off request ("请用中文回复我")
    family: bool = False  # may be read from a clause about a family member
    # Only right after a clause that yielded a key with (one of) these prefixes.
    after: str | tuple[str, ...] | None = None


def _r(
    group: str,
    lang: Lang,
    pattern: str,
    build: Build,
    *,
    standing: bool = False,
    family: bool = False,
    after: str | tuple[str, ...] | None = None,
) -> Rule:
    # Case-insensitive throughout; a proper name's capital is required locally with CAP.
    return Rule(
        group,
        lang,
        re.compile(pattern, re.IGNORECASE),
        build,
        standing=standing,
        family=family,
        after=after,
    )


# Pets by kind or by breed (a breed is keyed as its kind: 金毛 -> pet-dog): every animal the lexicon names, longest
# first (龙猫 before 猫). One character alone is too short to be sure of (「有马上要交的作业」), but 猫 and 狗.
_ZH_PETS = "|".join(
    sorted(
        {
            word
            for _, category, words in LEXICON
            if category == "animal"
            for word in words
            if has_han(word) and (len(word) > 1 or word in "猫狗")
        },
        key=lambda word: (-len(word), word),
    )
)
# "a dog allergy", "cat hair", "dog dander": the animal names what the user reacts to, not a pet.
_EN_NOT_ALLERGEN = r"(?! (?:allerg|hair|dander|fur))"
_EN_BREEDS = (
    r"golden retrievers?|labradors?|huskies|husky|corgis?|poodles?|beagles?|shiba inus?|ragdolls?|siamese cats?"
)
_ZH_OCCUPATION = (
    r"工程师|程序员|程序猿|码农|设计师|产品经理|经理|医生|医师|护士|律师|会计|老师|教师|教授|记者|作家|编辑|翻译|厨师|司机|警察"
    r"|销售|运营|分析师|研究员|架构师|科学家|学生|研究生|博士生|本科生|大学生|高中生|主播|博主|自由职业者|创业者|公务员|店主"
    r"|画家|摄影师|演员|歌手|工人|农民|快递员|外卖员|药剂师|咨询师|顾问|律师助理|产品|前端|后端|全栈|测试|运维|HR|hr"
    r"|财务|行政|人事|客服|法务|出纳|文员|开发者|开发|总监|主管|总裁|合伙人|老板|组长|数据分析|算法|策划|编剧|插画师|美术"
    r"|自由撰稿人|撰稿人|主持人|经纪人|创始人|制片人|网约车司机|保安|保姆|月嫂|导游|空姐|空乘|飞行员|军人|消防员|兽医|营养师"
    r"|护士长|店长|校长|院长|厂长|主任|机长|船长|列车长|站长|审计师|审计|精算师|会计师|税务师"
    r"|外卖骑手|骑手|分拣员|快递小哥|代驾|理发师|美甲师|健身教练|教练"
    r"|咖啡师|纹身师|调酒师|宠物美容师|美容师|按摩师|调音师|化妆师|造型师|摄像师|剪辑师|面点师|烘焙师|面包师|甜点师|糕点师"
    r"|裁缝|木匠|水电工|电工|焊工|瓦工|油漆工|保洁员|保洁|环卫工|护工|社工|幼师|保育员|园丁|列车员|乘务员|售票员|收银员"
    r"|营业员|导购|店员|仓库管理员|仓管|采购|邮递员|安检员|保险代理人|房产中介|果农|菜农|渔民|牧民"
    # Titles said in Latin letters inside Chinese: 「我在字节做SRE」.
    r"|(?-i:SRE|DevOps|DBA|PM|UI|UX|QA|CTO|CEO|CFO|COO)"
)
_EN_OCCUPATION = (
    r"engineer|developer|programmer|coder|designer|teacher|nurse|doctor|physician|surgeon|lawyer|attorney|accountant"
    r"|student|researcher|scientist|manager|writer|journalist|chef|cook|pharmacist|dentist|architect|analyst|consultant"
    r"|freelancer|photographer|artist|musician|electrician|plumber|firefighter|police officer|pilot|driver|translator"
    r"|air traffic controller|dispatcher|flight attendant|welder|machinist|surveyor|optometrist|midwife|courier"
    r"|editor|professor|lecturer|therapist|psychologist|veterinarian|vet|mechanic|farmer|librarian|recruiter"
    r"|salesperson|marketer|composer|conductor|entrepreneur|founder|barista|cashier|paramedic|intern|postdoc|data scientist"
    r"|co-founder|cofounder|director|principal|headteacher|head teacher|tutor|coach|trainer|social worker|caregiver"
    r"|carpenter|technician|clerk|secretary|receptionist|administrator|officer|soldier|bartender|waiter"
    r"|waitress|baker|butcher|realtor|real estate agent|broker|banker|trader|economist|statistician|biologist|chemist"
    r"|physicist|mathematician|geologist|dietitian|nutritionist|midwife|optometrist|radiologist|anesthesiologist"
    r"|tuner|zookeeper|aquarist|mail carrier|letter carrier|postman|postal worker|groomer|locksmith|arborist|landscaper"
    r"|roofer|bricklayer|janitor|custodian|lifeguard|park ranger|paralegal|hygienist|phlebotomist|sonographer|optician"
    r"|trucker|stylist|hairdresser|barber|tailor|jeweler|florist|auditor|actuary|underwriter|notary|bookkeeper|copywriter"
    r"|lineman|lineworker|line worker|fisherman|miner|inspector|contractor|estimator|deckhand|crane operator"
    r"|forklift operator|machine operator"
    r"|(?-i:CTO|CEO|CFO|COO|CIO|VP|PM|TPM|SWE|SRE|QA|DBA)"
)
# Who plays an instrument: a job when said as one ("I work as a pianist", "I'm a professional violinist"), else the
# instrument played ("I'm a jazz pianist" is "I play jazz piano": the lexicon keys both music-piano).
_EN_PLAYER = r"pianist|violinist|guitarist|cellist"
# The kind of place a job is done at, kept with the job ("Occupation: teacher at a high school"): the rules
# engine dropped it, so "I work as a teacher at a high school" restated "I'm a high school teacher" as a
# less detailed job. A named place is an employer (the employer rules).
_EN_WORKPLACE_KIND = (
    r"(?: (?:at|in) (?:a|an|the) (?-i:[a-z-]+ ){0,2}?(?:high school|middle school|elementary school|school|hospital"
    r"|clinic|restaurant|bank|hotel|store|shop|startup|company|firm|agency|university|college|factory|lab|library"
    r"|bakery|cafe|gym|nonprofit|daycare|kindergarten|pharmacy|warehouse))?"
)
# Car makes named in Chinese (「买的是比亚迪」, 「换成特斯拉了」): the vehicle, not a liking switched to.
_ZH_CAR_MAKES = (
    r"比亚迪|特斯拉|宝马|奔驰|奥迪|丰田|本田|大众|蔚来|小鹏|理想|小米SU7|小米汽车|极氪|问界|领克|吉利|长城|哈弗|红旗|五菱"
    r"|保时捷|沃尔沃|雷克萨斯|凯迪拉克|别克|福特|马自达|日产|现代|起亚|路虎|捷豹|斯巴鲁|雪佛兰|吉普|林肯|埃安|零跑|哪吒|岚图|阿维塔"
)
_CAR_MAKES = (
    r"(?-i:Tesla|Toyota|Honda|Ford|BMW|Audi|Mercedes|Volkswagen|VW|Subaru|Mazda|Nissan|Hyundai|Kia|Volvo|Porsche|Jeep"
    r"|Chevy|Chevrolet|Lexus|Prius|Jaguar|Land Rover|Range Rover|Mini Cooper|Fiat|Ferrari|BYD|NIO|Rivian|Polestar"
    r"|Dodge|GMC|Buick|Cadillac|Acura|Infiniti|Mitsubishi|Suzuki|Peugeot|Renault|Skoda|Harley|Ducati|Vespa"
    # Models said without their make: "I got a RAV4".
    r"|Civic|Accord|CR-V|Corolla|Camry|RAV4|Highlander|Tacoma|Model [3SXY]|F-150|Silverado|Outback|Forester|Wrangler"
    r"|Mustang|Golf|Jetta|Tiguan|Miata|CX-5|Leaf|Bolt|Odyssey|Sienna|Pilot)"
)
# What may follow a routine's hour: "I go to bed at 11 now", "… since the baby arrived".
_EN_ROUTINE_NOW = r"(?: now| these days| nowadays| lately)?(?: since [\w' -]{3,40})?"
# Devices a user owns or works on, named as they are sold: "I have a MacBook Pro", "My phone is a Pixel 8".
_EN_DEVICES = (
    r"(?-i:iPhone|iPad|iMac|MacBook|Mac|Google Pixel|Pixel|Samsung Galaxy|Galaxy|Kindle|Apple Watch|Chromebook|ThinkPad|Surface|Android phone"
    r"|Windows (?:laptop|PC)|Garmin(?: watch)?|Fitbit)(?: (?:Pro|Air|Max|Plus|Ultra|mini|Mini|[0-9][\w]*)){0,2}"
)
# The same, named in Chinese text.
_ZH_DEVICES = r"(?i:ThinkPad|MacBook(?: ?(?:Pro|Air))?|iPhone|iPad|Kindle|Apple Watch)|华为MateBook|MateBook|苹果手表|佳明手表|华为手机|小米手机"
_LANGUAGES_ZH = (
    r"(?:简体|繁体)?中文|繁体字|简体字|繁体|简体|普通话|粤语|英文|英语|日语|日文|韩语|韩文|法语|德语|西班牙语|俄语"
    # Dialects and more languages, by their names (not 白话, "plain words" as often as Cantonese).
    r"|广东话|闽南话|闽南语|台语|客家话|上海话|四川话|潮汕话|温州话|藏语|蒙古语|维吾尔语|泰语|越南语|阿拉伯语|意大利语"
    r"|葡萄牙语|马来语|印尼语|手语|东北话|北京话|天津话|河南话|山东话|陕西话|湖南话|长沙话|武汉话|重庆话|杭州话|苏州话|南京话"
    # A language named in English inside Chinese: 「以后回复用English」.
    r"|(?i:English|Chinese|Japanese|Korean)"
)
# A tool or language named in Latin letters inside Chinese text: "Python", "VS Code", "C++".
_ZH_TOOL = r"[A-Za-z][A-Za-z0-9+#.\-]*(?: [A-Za-z0-9][A-Za-z0-9+#.\-]*)?"
# Tools said together, each its own memory (`per_item`): 「我平时用Python和Go写后端」.
_ZH_TOOLS = _ZH_TOOL + r"(?:\s*(?:和|、|跟|以及|/)\s*" + _ZH_TOOL + r")*"
_LANGUAGES_EN = (
    r"(?:British |American |Australian )?English|(?:Traditional |Simplified )?Chinese|Mandarin|Cantonese|Japanese|Korean"
    r"|French|German|Spanish"
    r"|Portuguese|Italian|Russian|Arabic"
    r"|Hindi|Dutch|Swedish|Polish|Turkish|Vietnamese|Thai|Indonesian|American Sign Language|ASL"
    r"|Tagalog|Filipino|Hebrew|Greek|Persian|Farsi|Urdu|Bengali|Punjabi|Tamil|Swahili|Malay|Hokkien|Shanghainese|Hakka"
    r"|Norwegian|Danish|Finnish|Czech|Hungarian|Romanian|Ukrainian|Nepali|Burmese|Khmer|Mongolian|Tibetan|Welsh|Catalan"
)
_PROGRAMMING = r"Python|Java(?:Script)?|TypeScript|Go(?:lang)?|Rust|C\+\+|C#|Ruby|PHP|Kotlin|Swift|Scala|Haskell|Lua|SQL|Bash|Shell"
# Languages the user writes, listed: "Go and Python", 「Go和Python」.
_PROGRAMMING_LIST_EN = r"(?:" + _PROGRAMMING + r")(?:(?:,| and|, and| or) (?:" + _PROGRAMMING + r"))*"
_PROGRAMMING_LIST_ZH = r"(?:" + _PROGRAMMING + r")(?:(?:和|、|跟|或者?|以及)(?:" + _PROGRAMMING + r"))*"
_DEMONYMS = (
    r"Canadian|American|British|English|Australian|Chinese|Japanese|Korean|German|French|Italian|Spanish|Mexican"
    r"|Brazilian|Indian|Filipino|Vietnamese|Thai|Russian|Dutch|Swedish|Irish|Scottish|Polish|Turkish|Nigerian"
)
# An amount of money as said (`builders.amount_in_digits` reads it): "$2,000", "10k", 「六千八」.
_EN_AMOUNT = r"[$€£¥]?\d[\d,.]*k?"
_ZH_AMOUNT = r"[\d一二两三四五六七八九十百千万]+"
# Words that make a Chinese or English clause a standing rule rather than a one-off request.
# Up to the first such word of the clause ("…的时候" is "…时", but not the 时 of 平时 "usually", 小时 "hour",
# 同时, 及时, 准时…, which name no occasion), atomic: on "时时时…" a pattern trying every occurrence
# would be cubic in the clause length.
_ZH_STANDING_FIRST = (
    r"^(?>.*?(?:以后|今后|之后|从现在(?:开始|起)|每次|每当|只要|凡是|默认|一律|总是|永远|千万|绝对|都"
    r"|.(?<![平有小同及准按临暂定随当那这])时))"
)
# What the replies a rule is for are about, carried to the rule: 「以后提到体重，单位统一用斤」.
_ZH_REPLIES_ABOUT = r"(?:" + ZH_REPLIES_ABOUT + r"，)?"
# What every answer of a kind is asked to carry or leave out: "…, put an estimated duration next to every item".
_EN_IMPERATIVE = (
    r"(?:include|add|put|give|show|list|mark|label|note|number|start with|end with|begin with|use|keep|cite|link|quote"
    r"|mention|state|say|tell me|avoid|skip|leave out|don't|do not|never)"
)
# What the replies give, named in a rule for all of them ("all code examples", "your answers", "Dates should…").
_EN_REPLY_OUTPUTS = (
    r"(?:answers?|replies|responses|code|code (?:examples?|samples?|snippets?|blocks?)|examples|snippets|citations"
    r"|references|emails|drafts|summaries|explanations|lists|dates|times|measurements|prices|amounts|temperatures"
    r"|weights|distances|recipes|translations|headings|titles|itineraries|estimates|tables)"
)
_EN_STANDING = (
    r"(?:whenever|every time|each time|from now on|going forward|in (?:the )?future|always|by default|unless"
    r"|(?:only )?(?:when|if) I ask)"
)

# 「给我爸妈」, 「帮我老婆」: for the user's family, not a request to the assistant (「都会给我爸妈打生活费」 is no rule).
_NOT_MY_KIN = r"(?!爸|妈|父|母|老婆|老公|爱人|媳妇|家|儿|女|哥|姐|弟|妹|爷|奶|外公|外婆|姥|公公|婆婆|孩子)"

_ZH_ADV = r"(?:平时|平常|一般|通常|晚上|早上|中午|下午|傍晚|睡前|周末|吃饭(?:的时候|时)?|从来|基本上?|一直|现在|也|都|还是|还|真的|实在|特别|最|超|很|非常|比较|挺|蛮|更|向来|从小|一向|就|其实|本身|已经|早就|再也|最近|目前|一般都|总是|可能|也许|大概|好像|应该|又|终于|重新|接下来|下一步)*"
# The user as subject, with the adverbs around it: 「我平时…」, and a time or discourse word said before
# 我 (「其实现在我挺喜欢香菜的」, 「最近我…」).
# Body parts a health fact names in one character or two (「胃不好」, 「腰疼」): what 「胃好了」 got over.
_ZH_BODY_PARTS = r"胃|腰|腿|膝盖|肝|肾|牙|颈椎|肩膀?|背|脚|眼睛?|嗓子|心脏|肠胃|皮肤"
_ZH_ME = r"^(?:(?:其实|现在|最近|目前|如今|平时|早上|中午|下午|晚上|睡前|周末)+(?=我))?(?:我|本人)?" + _ZH_ADV
# Conditions besides the common ones each rule lists: what a doctor, a pharmacist or a trip plan asks about.
_ZH_CONDITIONS = r"色弱|红绿色盲|色盲|心脏杂音|甲状腺结节|胆结石|过敏性哮喘|乙肝|丙肝|甲亢|甲减|甲状腺功能亢进(?:症)?|甲状腺功能减退(?:症)?|胃溃疡|脂肪肝|肾结石|心律不齐|类风湿(?:性)?关节炎|红斑狼疮|帕金森|青光眼|慢阻肺|自闭症|孤独症|阿斯伯格综合征|干眼症|慢性胃炎|胃炎|胃食管反流|反流性食管炎|胃酸反流|花粉症|地中海贫血|地贫|雷诺综合征|雷诺氏症|玫瑰痤疮|酒渣鼻|坐骨神经痛"
_EN_CONDITIONS = (
    r"panic attacks|(?:a )?panic disorder|PTSD|OCD|bipolar(?: disorder)?|(?:an )?eating disorder|hepatitis [bc]|(?:a )?stomach ulcer|(?:an )?ulcer|lupus|glaucoma|hypothyroidism|hyperthyroidism|(?:an )?(?:underactive|overactive) thyroid|(?:a )?thyroid"
    r" condition|kidney stones|(?:an )?irregular heartbeat|(?:an )?arrhythmia|Parkinson's|rheumatoid arthritis|HIV"
    r"|multiple sclerosis|Crohn's(?: disease)?|COPD|sleep apnea|fatty liver|(?:a )?heart murmur|POTS|tinnitus|gallstones|thyroid nodules?"
    r"|dry eye syndrome|dry eyes|acid reflux|GERD|gastritis|hay fever|allergic rhinitis|thalass[a]?emia"
    r"|Raynaud's(?: syndrome| phenomenon| disease)?|rosacea|sciatica"
)
# A device in the body or worn for a condition (core: an MRI, a scan, a sport or a trip plans around it).
_ZH_IMPLANTS = r"心脏起搏器|起搏器|胰岛素泵|人工耳蜗|心脏支架|支架"
_EN_IMPLANTS = (
    r"pacemaker|insulin pump|cochlear implant|(?:heart |cardiac )?stent|(?:implanted |implantable )?defibrillator"
)
_ZH_CHRONIC_MEDS = (
    r"降压药|降糖药|二甲双胍|(?:甘精|门冬|地特|德谷|赖脯|长效|短效|速效)?胰岛素|抗抑郁药|舍曲林|氟西汀|帕罗西汀|赛乐特|艾司西酞普兰|左洛复|百忧解|来士普|抗凝药|华法林|优甲乐"
    r"|甲状腺素|阿托伐他汀|立普妥|辛伐他汀|他汀|避孕药|抗癫痫药|抗焦虑药|心脏病药|叶酸|孕妇维生素"
    r"|赖诺普利|氨氯地平|络活喜|氯沙坦|科素亚|美托洛尔|倍他乐克|氯吡格雷|波立维|阿司匹林|免疫抑制剂"
    # A drug the list does not name, known by the ending of its generic name: 氯雷他定, 西替利嗪, 依那普利, 奥美拉唑.
    r"|[\u4e00-\u9fff]{1,4}?(?:他定|利嗪|普利|沙坦|地平|他汀|洛尔|双胍|拉唑|替丁|曲坦|西林|沙星)"
)
# Pills taken every day at a dose (`builders.medication_dose`), and when in the day.
_ZH_DAILY_PILLS = r"阿司匹林|布洛芬|维生素[A-Z\d]*|鱼油|钙片|褪黑素|" + _ZH_CHRONIC_MEDS
_ZH_DAILY = r"(?:每天|每日|天天|每晚|一天)(?:早上|晚上|睡前|睡觉前){0,2}"
# A daily dose in Chinese: tablets (「两片」), insulin units (「14个单位」) or a weight (「500毫克」), and the verb it is taken
# with (打 an injection).
_ZH_DOSE = (
    r"(?P<dose>半|[一两二三四五六七八九十]{1,3}|\d{1,4})(?:整)?(?P<unit>片|粒|颗|个单位|单位|毫克|mg|微克)(?:的)?"
)
_ZH_DOSE_TAKEN = r"(?:吃|服用|服|打|注射)"
# How often a dose is taken in English: "twice a day", or once ("every morning", "daily").
_EN_DOSE_TIMES = (
    r"(?:,? (?P<times>twice|three times|2 times|3 times) (?:a day|daily|per day)"
    r"|,? every (?:morning|evening|night|day)|,? daily| a day| once a day| once daily| per day)?"
)
_EN_DOSE_AMOUNT = r"(?P<dose>\d+(?:\.\d+)? ?(?:mg|mcg|ml|units?|iu))"
_EN_CHRONIC_MEDS = (
    r"metformin|insulin|blood thinners|warfarin|antidepressants|sertraline|zoloft|fluoxetine|prozac|escitalopram|lexapro"
    r"|statins|levothyroxine|birth control|an inhaler|folic acid|prenatal vitamins"
    r"|lisinopril|amlodipine|losartan|metoprolol|atorvastatin|simvastatin|lipitor|paroxetine|paxil"
    r"|clopidogrel|plavix|immunosuppressants|an MAOI|MAOIs"
    # A drug the list does not name, known by the ending of its generic name: enalapril, valsartan, omeprazole.
    r"|[a-z]{2,10}(?:pril|sartan|olol|statin|dipine|formin|prazole|tadine|tidine|triptan|cillin|mycin|floxacin|oxetine)"
    r"|(?:blood pressure|diabetes|thyroid|heart|seizure|anxiety|ADHD) (?:medication|meds|medicine|pills)"
    # Supplements taken daily: "a vitamin D supplement", "a daily B12 supplement", "fish oil".
    r"|(?:a )?(?:daily )?(?:vitamin [A-Z]\d{0,2}|B12|fish oil|omega-3s?|magnesium|melatonin|calcium|probiotics?)"
    r"(?: supplements?| pills?| tablets?| gummies)?"
)
# Several drugs said at once, each its own memory (`keyed_fact` splits them): "I take lisinopril and amlodipine".
_ZH_CHRONIC_MED_LIST = rf"(?:{_ZH_CHRONIC_MEDS})(?:(?:和|跟|、|以及|还有)(?:{_ZH_CHRONIC_MEDS}))*"
_EN_CHRONIC_MED_LIST = rf"(?:{_EN_CHRONIC_MEDS})(?:(?:,\s*|,?\s+and\s+)(?:{_EN_CHRONIC_MEDS}))*"
# The styles an answer can have, as a reply-style preference names them.
# 「回答短一点」: 短 and 长 only as a degree asked for (not 「短期」, 「长话短说」).
_ZH_STYLES = r"简洁|简短|简单|详细|正式|口语化|直接|幽默|通俗|专业|委婉|随意|随便|轻松|活泼|严肃|客气|亲切|耐心|[短长](?=一?点|些|一些)"
_EN_STYLES = (
    r"concise|brief|short|shorter|succinct|direct|detailed|thorough|simple|straightforward|formal|casual|plain|clear"
    r"|in-depth|long|longer"
)
# Settings a liking is said in (「我坐飞机喜欢…」): closed, so 「我女儿喜欢…」 stays another person's.
_ZH_SETTINGS = r"坐飞机|坐高铁|坐火车|坐车|出差|旅行|旅游|出门|开车|睡觉|写代码|工作|学习|看书|跑步|健身|吃饭|点外卖|喝咖啡|听歌|周末"
# A goal's year said before the wish (「我今年想…」), and the goal itself: not asked of the
# assistant (「以后想让你…」), not already done (「…了」).
_ZH_YEAR = r"(?:今年|明年|年底前?)(?:一定|还)?"
_ZH_OWN_GOAL = r"(?!让?[你您]|请)(?P<item>[^，。]+)(?<!了)$"
# How a diet the user keeps is said: 「平时」/「最近」, then 「要」/「必须」/「尽量」.
_ZH_NOWADAYS = r"(?:平时|日常|最近|现在)?"
_ZH_MUST_WORD = r"(?:要|得|需要|必须|尽量|一定要|应该)"
_ZH_MUST = _ZH_MUST_WORD + "?"
# What a project is called when it is given up ("I shelved the game", "We dropped the side project").
_EN_PROJECT_NOUNS = (
    r"project|app|application|game|website|site|blog|podcast|novel|book|thesis|startup|side project|library|tool"
    r"|plugin|extension|bot|course|renovation|channel"
)
# How often a hobby is kept up, after its item: "every night", "on weekends", "twice a week".
_EN_OFTEN = (
    r"(?: (?:every \w+(?:(?:,| and) \w+day)*|(?:on )?(?:most )?weekends|on (?:most )?\w+days(?:(?:,| and) \w+days)*|daily|at night"
    r"|with (?:my )?friends|\w+ (?:a|per) (?:week|day|month)))?"
)
_EN_NOW_AND_THEN = r"(?:now and then|every now and then|occasionally|once in a while|sometimes|socially|on (?:special )?occasions|at parties|on weekends)"
_EN_KEPT_UP = (
    r"(?:,? (?:and )?(?:I(?:'ve| have) )?been (?:doing|playing) (?:it|that) (?:for|since) [\w ]{1,25}"
    r"| for (?:over |about |almost |nearly )?(?:\d+|a few|many|two|three|five|ten) (?:years|months)"
    r"| since (?:I was (?:a kid|little|\w+)|childhood|college|high school|\d{4}))"
)
# What a "trying to" never is a goal: coping and moods ("stay upbeat", "channel my grief", "keep going").
_EN_NOT_A_GOAL = (
    r"(?:stay (?!fit|healthy|active|sober|in shape)|keep (?:going|up|reaching|moving|pushing|at it)|be (?:positive"
    r"|patient|strong|there|more|better)|channel|cope|process|figure|get through|hang in|focus on the|remember"
    r"|appreciate|cherish|enjoy|relax|take it|make the most|spend as little|keep (?:my )?(?:spending|costs|expenses))\b"
)
# A product's name opens with a capital, or with "i" before one (iPad, iPhone).
_EN_PRODUCT = r"(?-i:[A-Z]|i[A-Z])"
# What a tool is used for, after it: "a MacBook for work and a Windows PC for gaming" (each kept with its item).
_EN_USED_FOR = (
    r"(?: for (?:work|gaming|games|coding|school|personal stuff|personal use|fun|home|writing|editing|music))?"
)
_EN_ADV = r"(?:(?:really|just|absolutely|also|totally|genuinely|honestly|do|still|kind of|sort of|mostly|usually|normally|typically|often|always|generally|definitely|truly|now|actually) )*"

CAP = r"(?-i:[A-Z])"
# 在 as "at", not the end of 现在/正在/实在/存在/自在.
AT = r"(?<![现正实存自])在"
# A place named in Latin letters, or in Chinese inside an English sentence ("I live in 北京").
_EN_PLACE = r"(?P<value>(?-i:[A-Z0-9])[\w.'’-]*(?:,? " + CAP + r"[\w.'’-]*){0,3}|" + ZH + r"{2,10})"
_EN_NAME = r"(?P<value>" + CAP + r"[\w&.'-]*(?: " + CAP + r"[\w&.'-]*)*)"
# "I work in Dublin", not "I work in IT" / "in Marketing": a field of work is not a city.
_EN_WORK_PLACE = (
    r"(?!(?:IT|HR|PR|QA|UX|UI|AI|ML|R&D|Tech|Finance|Marketing|Sales|Education|Healthcare|Retail|Software|Research)\b)"
    + _EN_PLACE
)

# An employer named by its kind ("a bank", "a fintech startup"), or by name for a new job.
_EMPLOYER_KINDS = (
    r"(?:bank|hospital|school|startup|company|firm|agency|university|college|factory|hotel|restaurant|store|shop"
    r"|clinic|nonprofit|non-profit|charity|consultancy|publisher|studio|lab|manufacturer|retailer|insurer|airline"
    r"|bakery|cafe|library|museum|newspaper)"
)
_EN_KIND_OF_EMPLOYER = r"(?:a|an) (?:[\w-]+ ){0,3}?" + _EMPLOYER_KINDS
_EN_EMPLOYER_OF_A_KIND = r"(?P<value>" + _EN_KIND_OF_EMPLOYER + r")"
_EN_NEW_EMPLOYER = r"(?P<value>" + _EN_KIND_OF_EMPLOYER + r"|" + CAP + r"[\w&.'-]*(?: " + CAP + r"[\w&.'-]*)*)"

_pref = per_item("preference", liking_key, 3)
# The goals a skill learned reaches, under the keys each language gives them (「想学游泳」 goal-swimming,
# "I want to learn to swim" goal-swim; learning to drive is the license, `keys._GOAL_OF_VERB`).
_LEARNING_TO_SWIM = (
    slot_retirement("goal", "goal-swimming", if_held=True),
    slot_retirement("goal", "goal-swim", if_held=True),
)
_LEARNING_TO_DRIVE = slot_retirement("goal", "goal-drivers-license", if_held=True)
_switched_to = switched_to(_pref)
# What the user asks of the replies, not a switch of their own: 「跟我讲田地面积都换成亩」, 「给我换成公里」, 「热量单位请换成kJ」.
_ASKED_OF_THE_REPLIES_ZH = re.compile(
    r"^(?:以后|请|麻烦)?(?:你)?(?:跟我|给我|帮我|和我|对我)|^[^，。我]{1,8}?单位(?:请|麻烦)"
)


def _switched_to_by_the_user(match: re.Match[str], clause: Clause) -> list[Candidate]:
    """`_switched_to`, unless the clause asks the replies for the switch (`_ASKED_OF_THE_REPLIES_ZH`)."""
    return [] if _ASKED_OF_THE_REPLIES_ZH.match(clause.text) else _switched_to(match, clause)


# The keys of what one uses or has and may switch away from (liking_key's lexicon categories).
# A travel wish is not a wish to live, work or study there.
_TRIP_TAKEN = named_retirement(
    "goal-",
    unless=r"搬|移民|定居|工作|留学|读书|上学|\b(?:move|moving|live|living|relocate|relocating|work|working|study|studying|settle|settling)\b",
)
# Places one travels to, said alone (「我想去冰岛」): countries and regions, not errands (「我想去超市」).
_ZH_TRAVEL_PLACES = (
    r"日本|韩国|泰国|越南|新加坡|马来西亚|印尼|巴厘岛|马尔代夫|迪拜|土耳其|埃及|印度|尼泊尔|美国|加拿大|墨西哥|巴西"
    r"|英国|法国|德国|意大利|西班牙|葡萄牙|瑞士|希腊|冰岛|挪威|瑞典|芬兰|丹麦|荷兰|奥地利|俄罗斯|澳大利亚|澳洲|新西兰"
    r"|欧洲|北欧|非洲|南极|北极|西藏|新疆|云南|海南|三亚|大理|丽江|拉萨|桂林|张家界|九寨沟|内蒙古|青海|敦煌|台湾|香港|澳门"
    r"|东京|大阪|京都|首尔|曼谷|清迈|巴黎|伦敦|罗马|纽约"
)
_SWITCHED_FROM = ("preference-", "device-", "app-", "drink-", "food-")
_retire_any = retirement(retired_key)
_retire_goal = retirement(lambda verb, item: goal_key(item))
_retire_preference = retirement(lambda verb, item: preference_key(item))
_retire_project = retirement(lambda verb, item: project_key(item))
# "I don't drink anymore": to drink, said alone, is to drink alcohol.
_retire_habit = retirement(lambda verb, item: preference_key("alcohol" if item.lower() == "drink" else item))

RESIDENCE_ZH = Slot("fact", "residence-city", {"zh": "住在{value}", "en": "Lives in {value}"}, clean=zh_place)
RESIDENCE_HOME_ZH = Slot("fact", "residence-city", {"zh": "住在{value}", "en": "Lives in {value}"}, clean=zh_known_city)
RESIDENCE_EN = Slot("fact", "residence-city", {"zh": "住在{value}", "en": "Lives in {value}"})
HOMETOWN = Slot("fact", "hometown", {"zh": "老家是{value}", "en": "Is from {value}"}, ttl_days=LIFELONG_TTL_DAYS)
# When the user stops eating, whatever the hour: one slot.
EATING_CUTOFF = Slot(
    "preference", "eating-cutoff", {"zh": "{value}不吃东西", "en": "Doesn't eat after {value}"}, 3, clean=eating_cutoff
)
# 「专业术语保留英文」, 「专业名词不用翻译成中文」, "Keep technical terms in English": one rule, however said.
JARGON_UNTRANSLATED = Slot(
    "constraint", "rule-english-jargon", {"zh": "专业术语保留英文", "en": "Keep technical terms in English"}
)
EATING_NOTHING_AFTER_NOON = Slot("preference", "eating-cutoff", importance=3)
GREW_UP = Slot("fact", "hometown", {"zh": "在{value}长大", "en": "Grew up in {value}"}, ttl_days=LIFELONG_TTL_DAYS)
OCCUPATION = Slot("fact", "occupation", {"zh": "职业：{value}", "en": "Occupation: {value}"})
# What the user does for a living said as a statement ("Is retired", "Teaches high school math").
OCCUPATION_STATED = Slot("fact", "occupation")
# A job said by what is done: 「跑外卖」 is the delivery rider's (`builders.zh_job_named`).
OCCUPATION_DONE = replace(OCCUPATION, clean=zh_job_named)
SCHOOL = Slot("fact", "school", {"zh": "在{value}上学", "en": "Studies at {value}"})
# Admitted, not yet there: 「我被浙大录取了」, "I got into Stanford".
ADMITTED = Slot("fact", "school", {"zh": "被{value}录取", "en": "Admitted to {value}"})
PASSED_INTO = Slot("fact", "school", {"zh": "考上了{value}"}, clean=zh_alma_mater)
OFFER_FROM = Slot("fact", "school", {"zh": "拿到了{value}的offer"}, clean=zh_alma_mater)
SCHOOL_YEAR = Slot("fact", "school", {"zh": "在读{value}", "en": "In {value}"})
SCHOOL_ZH = replace(SCHOOL, clean=zh_school)
# The city of a college, not the college: 「我在厦门读大学」, "I go to college in Boston".
SCHOOL_CITY = Slot("fact", "school-city", {"zh": "在{value}读大学", "en": "Goes to college in {value}"})
SCHOOL_CITY_ZH = replace(SCHOOL_CITY, clean=zh_known_city)
# Units and the clock, one wording per value whatever words asked for them ("Please give temperatures in Celsius",
# "When you mention temperatures, use Celsius").
_UNIT_NAMES = {
    "metric": "metric units",
    "imperial": "imperial units",
    "celsius": "Celsius",
    "fahrenheit": "Fahrenheit",
    "公制": "公制单位",
    "英制": "英制单位",
    "摄氏度": "摄氏度",
    "华氏度": "华氏度",
}
REPLY_UNITS = Slot(
    "constraint",
    "reply-units",
    {"zh": "用{value}", "en": "Uses {value}"},
    clean=lambda said: _UNIT_NAMES.get(said.lower()),
)
_CITATION_STYLES = {"apa": "APA", "mla": "MLA", "chicago": "Chicago", "ieee": "IEEE", "harvard": "Harvard"}
_CITATION_STYLES |= {"vancouver": "Vancouver", "gb/t 7714": "GB/T 7714", "gb/t7714": "GB/T 7714", "国标": "GB/T 7714"}
REPLY_CITATION_STYLE = Slot(
    "constraint",
    "reply-citation-style",
    {"zh": "引用格式用{value}", "en": "Citations in {value} style"},
    clean=lambda said: _CITATION_STYLES.get(said.lower()),
)
REPLY_TIME_FORMAT = Slot(
    "constraint", "reply-time-format", {"zh": "时间用{value}", "en": "Times in {value} format"}, clean=str.lower
)
_CURRENCY_NAMES = {
    "人民币": "人民币",
    "美元": "美元",
    "美金": "美元",
    "欧元": "欧元",
    "日元": "日元",
    "港币": "港币",
    "英镑": "英镑",
}
_CURRENCY_NAMES |= {"rmb": "RMB", "yuan": "RMB", "usd": "US dollars", "dollars": "dollars", "us dollars": "US dollars"}
_CURRENCY_NAMES |= {"eur": "euros", "euros": "euros", "gbp": "pounds", "yen": "yen", "cad": "CAD", "aud": "AUD"}
REPLY_CURRENCY = Slot(
    "constraint",
    "reply-currency",
    {"zh": "价格用{value}", "en": "Prices in {value}"},
    clean=lambda said: _CURRENCY_NAMES.get(said.lower()),
)
_WEIGHT_UNIT_NAMES = {"斤": "斤", "公斤": "公斤", "千克": "公斤", "pounds": "pounds", "lbs": "pounds"}
_WEIGHT_UNIT_NAMES |= {"kilograms": "kilograms", "kilos": "kilograms", "kg": "kilograms", "stone": "stone"}
# "Stone and pounds" (13 st 4 lb) is one unit, not pounds.
_WEIGHT_UNIT_NAMES |= {
    "stones": "stone",
    "stone and pounds": "stone and pounds",
    "stones and pounds": "stone and pounds",
}
REPLY_WEIGHT_UNIT = Slot(
    "constraint",
    "reply-weight-unit",
    {"zh": "体重用{value}", "en": "Weights in {value}"},
    clean=lambda said: _WEIGHT_UNIT_NAMES.get(said.lower()),
)
REPLY_SOURCES = Slot("constraint", "reply-sources")
REPLY_SPOILERS = Slot("constraint", "reply-spoilers")
EMPLOYER_ZH = Slot("fact", "employer", {"zh": "在{value}工作", "en": "Works at {value}"}, clean=zh_employer)
EMPLOYER_OR_KIND_ZH = replace(EMPLOYER_ZH, clean=zh_employer_or_kind)
EMPLOYER_EN = Slot("fact", "employer", {"zh": "在{value}工作", "en": "Works at {value}"})
# "Pacific", "Pacific Time", "Pacific time": one zone, named one way.
TIMEZONE = Slot(
    "fact",
    "timezone",
    {"zh": "时区：{value}", "en": "Time zone: {value}"},
    clean=lambda value: re.sub(r"(?i)\s+time(?:\s?zone)?$", "", value),
)
BIRTHDAY = Slot("fact", "birthday", {"zh": "生日是{value}", "en": "Birthday: {value}"}, ttl_days=LIFELONG_TTL_DAYS)
NATIVE_LANGUAGE = Slot(
    "fact", "native-language", {"zh": "母语是{value}", "en": "Native language: {value}"}, ttl_days=LIFELONG_TTL_DAYS
)
WORK_CITY_ZH = Slot("fact", "work-city", {"zh": "在{value}工作", "en": "Works in {value}"}, clean=zh_known_city)
WORK_CITY_EN = Slot("fact", "work-city", {"zh": "在{value}工作", "en": "Works in {value}"})
# Where the user works, as a standing arrangement (today's home office is none).
WORK_LOCATION = Slot("fact", "work-location")
REPLY_LANGUAGE = Slot("constraint", "reply-language")
DRINKING = Slot("preference", "drink-alcohol", importance=3)
REPLY_LANGUAGE_AFTER_RULE = Slot("constraint", "reply-language", {"zh": "回复用{value}", "en": "Replies in {value}"})
REPLY_LENGTH = Slot("constraint", "reply-length")
REPLY_STYLE = Slot("preference", "reply-style", importance=3)
REPLY_CODE_LENGTH = Slot("constraint", "reply-code-length")
# How much the user knows, which every explanation is pitched at: apart from the style (「回复简洁」).
REPLY_LEVEL = Slot("preference", "reply-level", importance=3)
MEDICATION = keyed_fact("medication", 5)
_switched_medication = switched_to(MEDICATION)
# Sobriety kept: the statement is the content, whatever words it came in (core: `health-`).
SOBRIETY_STATED = Slot("fact", "health-sobriety", importance=5)
# "简洁一点" said after another reply rule: the clause alone does not say it is about replies.
REPLY_STYLE_AFTER_RULE = Slot(
    "preference", "reply-style", {"zh": "回复{value}", "en": "Replies: {value}"}, importance=3
)
REPLY_FORMAT = Slot("constraint", "reply-format")
REPLY_STEPS = Slot(
    "constraint",
    "reply-steps",
    {"zh": "讲操作时用编号步骤", "en": "Gives how-to answers as numbered steps"},
    importance=3,
)
# How many things a recommendation lists at most (`builders.count_in_digits`: 「三个」 and "3" are one value).
REPLY_OPTIONS = Slot(
    "constraint",
    "reply-options",
    {"zh": "推荐时最多列{value}个选项", "en": "Lists at most {value} options when recommending"},
    importance=3,
    clean=count_in_digits,
)
# How dates are written (`builders.date_format`: "day/month/year" is "DD/MM/YYYY"), acronyms spelled out, digits.
REPLY_DATE_FORMAT = Slot(
    "constraint", "reply-date-format", {"zh": "日期格式用{value}", "en": "Dates as {value}"}, 3, clean=date_format
)
REPLY_ACRONYMS = Slot(
    "constraint",
    "reply-acronyms",
    {"zh": "缩写第一次出现时写出全称", "en": "Spells out acronyms the first time they are used"},
    3,
)
REPLY_NUMERALS = Slot("constraint", "reply-numerals", {"zh": "数字用阿拉伯数字写", "en": "Writes numbers as digits"}, 3)
# Em dashes left out, and the case variables are named in, said one way each.
REPLY_NO_EM_DASHES = Slot("constraint", "reply-em-dashes", {"en": "No em dashes in replies"}, 3)
REPLY_NAMING_CASE = Slot(
    "constraint", "code-naming", {"en": "Variable names in {value}"}, 3, clean=lambda said: _NAMING_CASES[said.lower()]
)
_NAMING_CASES = {
    "snake_case": "snake_case",
    "snake case": "snake_case",
    "camelcase": "camelCase",
    "camel case": "camelCase",
}
_NAMING_CASES |= {"pascalcase": "PascalCase", "pascal case": "PascalCase", "kebab-case": "kebab-case"}
# 你 rather than the polite 您 (`clauses._ZH_PLAIN_YOU`, which says it one way).
REPLY_PLAIN_YOU = Slot("constraint", "reply-address", {"zh": "称呼用“{value}”，不用“您”"}, importance=3)
REPLY_TYPE_HINTS = Slot(
    "constraint",
    "reply-type-hints",
    {"zh": "Python代码加类型注解", "en": "Adds type hints to Python code"},
    importance=3,
)
REPLY_NO_SUMMARY = Slot(
    "constraint", "reply-summary", {"zh": "回答结尾不加总结", "en": "No summary at the end of replies"}, importance=3
)
REPLY_EMOJI = Slot("constraint", "reply-emoji")
CODE_LANGUAGE = Slot("constraint", "code-language")
# Tabs or spaces: one slot, so "use 4 spaces from now on" replaces "indent with tabs" instead of standing beside it.
CODE_INDENTATION = Slot(
    "constraint", "code-indentation", {"zh": "代码缩进用{value}", "en": "Indent code with {value}"}, clean=str.lower
)
ALLERGY = keyed_fact("allergy", 5, LIFELONG_TTL_DAYS, not_item="allerg(?:y|ies)")
HEALTH = keyed_fact("health", 5, LIFELONG_TTL_DAYS)
TRAIT = keyed_fact("trait", 3, LIFELONG_TTL_DAYS)
RUNNING_DISTANCE = Slot(
    "preference",
    "running-distance",
    {"zh": "每次跑{value}公里", "en": "Runs {value} km each time"},
    3,
    clean=count_in_digits,
)
# The floor the user's home is on, in digits (`builders.floor_number`), with ", no elevator" where said right after it
# (`engine._NO_ELEVATOR`): what carrying a purchase home or a visit with a pram comes to.
HOME_FLOOR = Slot("fact", "home-floor", {"zh": "住在{value}楼", "en": "Lives on floor {value}"}, 3, clean=floor_number)
COMMUTE_TIME = Slot(
    "fact", "commute", {"zh": "上班单程{value}分钟", "en": "Commute takes {value} minutes each way"}, clean=minutes_said
)
ROOMMATES = Slot(
    "fact", "household", {"zh": "和{value}个室友合租", "en": "Lives with {value} roommates"}, clean=count_in_digits
)
CAR_DRIVEN = Slot("fact", "vehicle", {"zh": "开{value}", "en": "Drives a {value}"}, clean=car_named)
# Who the user reports to, by name.
WORK_MANAGER = Slot("fact", "work-manager", {"zh": "领导是{value}", "en": "Reports to {value}"}, 3)
# The airline the user flies.
AIRLINE = Slot("preference", "travel-airline", {"zh": "坐飞机一般选{value}", "en": "Usually flies {value}"}, 3)
# What groceries may cost a week (`builders.amount_in_digits`).
GROCERY_BUDGET = amount_slot(
    "budget-groceries", {"zh": "买菜预算每周{value}元", "en": "Grocery budget: {value} a week"}
)
# A blood type, in capitals (「O型血」, "O positive" -> "O+").
BLOOD_TYPE = Slot(
    "fact",
    "health-blood-type",
    {"zh": "血型：{value}型", "en": "Blood type: {value}"},
    4,
    LIFELONG_TTL_DAYS,
    clean=lambda said: said.upper().replace(" POSITIVE", "+").replace(" NEGATIVE", "-"),
)
# The share of each paycheck saved ("15%"), and a car loan's monthly payment (`builders.amount_in_digits`).
SAVINGS_RATE = Slot("fact", "finance-savings-rate", {"en": "Saves {value} of each paycheck"}, 3)
CAR_PAYMENT = amount_slot("finance-car-payment", {"en": "Car payment: {value} a month"})
# Left-handedness, said one way (「惯用左手」, 「是个左撇子」, "I'm a lefty").
LEFT_HANDED = Slot("fact", "trait-left-handed", {"zh": "是左撇子", "en": "Is left-handed"}, 3, LIFELONG_TTL_DAYS)
# Which ear hears badly (core: a health fact).
_EARS = {"左": "左耳", "右": "右耳", "两": "双耳", "双": "双耳", "left": "the left ear", "right": "the right ear"}
_EARS["both"] = "both ears"
HEARING = Slot(
    "fact",
    "health-hearing",
    {"zh": "{value}听力不好", "en": "Hard of hearing in {value}"},
    5,
    LIFELONG_TTL_DAYS,
    clean=lambda said: _EARS.get(said.lower()),
)
# Work on the side: 「下班后在网上接翻译的活」, "I do freelance proofreading on the side".
SIDE_JOB = Slot("fact", "side-job", {"zh": "副业：{value}", "en": "Side job: {value}"}, 3)
NAP_LENGTH = Slot(
    "preference", "habit-nap", {"zh": "午睡{value}分钟", "en": "Naps for {value} minutes"}, 3, clean=minutes_said
)
# What the user aims at, one amount in digits (`builders.amount_in_digits`), so that an amount said in other words is a
# repeat and another amount a new value: a daily step count, a monthly saving.
STEPS_GOAL = Slot(
    "goal",
    "goal-walking",
    {"zh": "目标每天走{value}步", "en": "Aims to walk {value} steps a day"},
    clean=amount_in_digits,
)
SAVINGS_GOAL = Slot(
    "goal", "goal-saving", {"zh": "目标每月存{value}元", "en": "Aims to save {value} a month"}, clean=amount_in_digits
)
LUNCH_PLACE = Slot(
    "preference", "lunch-place", {"zh": "午饭一般在{value}吃", "en": "Usually has lunch in the {value}"}, 3
)
# How many hours the user sleeps, in digits (`builders.count_in_digits`).
SLEEP_HOURS = Slot(
    "preference",
    "sleep-hours",
    {"zh": "每天睡{value}小时", "en": "Sleeps {value} hours a night"},
    3,
    clean=count_in_digits,
)
# Said without the words "light sleeper" (`TRAIT` keys those): "I sleep lightly", 「我睡眠很浅」.
LIGHT_SLEEPER = Slot("fact", "trait-light-sleeper", None, 3, LIFELONG_TTL_DAYS)
# Core, so they never expire (`memories/lifecycle.py`): the user's saying it is over retires them.
PREGNANCY = Slot("fact", "health-pregnancy", importance=5)
BREASTFEEDING = Slot("fact", "health-breastfeeding", importance=5)
TRYING_TO_CONCEIVE = Slot("fact", "health-trying-to-conceive", importance=5)
# A pregnancy ends the trying to conceive held (「我最近在备孕」 then 「我怀孕了！」; `builders.SWITCHED_AWAY`).
_PREGNANT = switched_to(PREGNANCY)
SENSITIVITY = keyed_fact("sensitivity", 4, LIFELONG_TTL_DAYS)
DOCTORS_ORDER = keyed_fact("diet", 5)
_EN_SUBSTANCES = (
    r"(?i:caffeine|coffee|espresso|green tea|tea|alcohol|red wine|white wine|wine|beer|dairy|milk|lactose|gluten|MSG"
    r"|sugar|spicy food|chocolate|cheese|onions?|garlic|soy)"
)
# Drugs a user may be told never to take.
# What an allergy is most often to, said as what it would do: "Peanuts could literally kill me".
_EN_ALLERGENS = (
    r"(?i:peanuts?|tree nuts|nuts|shellfish|shrimp|prawns|crab|lobster|sesame|eggs?|fish|soy|wheat|cashews?|almonds?"
    r"|walnuts?|pecans?|hazelnuts?|pistachios?|bee stings?|wasp stings?|latex|penicillin)"
)
_EN_DRUGS = (
    r"(?i:aspirin|ibuprofen|advil|NSAIDs|penicillin|amoxicillin|codeine|sulfa drugs|cephalosporins|opioids|morphine)"
)
_ZH_DRUGS = r"头孢(?:类)?|青霉素|阿莫西林|布洛芬|阿司匹林|磺胺(?:类)?(?:药物?)?|可待因|吗啡|非甾体抗炎药"
_ZH_SUBSTANCES = r"咖啡因|咖啡|浓茶|茶|红酒|啤酒|白酒|酒|牛奶|奶制品|乳制品|辣的|辣|味精|巧克力|冰的|甜食"
PET = keyed_fact("pet", 3)
# Where a pet of an English list starts, its kind in `item`: "a dog named Max", "two cats".
EN_PET_MENTION = re.compile(
    r"\b(?:a|an|one|two|three|four|\d+) (?:[\w-]+ ){0,2}(?P<item>"
    + EN_PET_KINDS
    + r"|puppy|kitten|"
    + _EN_BREEDS
    + r")\b",
    re.IGNORECASE,
)
LISTED_PET = listed_fact("pet", 3, EN_PET_MENTION)
EDUCATION = Slot("fact", "education-major", ttl_days=LIFELONG_TTL_DAYS)
COMMUTE = Slot("fact", "commute")
# How the user gets to work, said one way (`builders.commute_mode`: "by ferry", "ride the ferry" -> "Takes the ferry to
# work"; "by car" -> "Drives to work").
COMMUTE_MODE = Slot("fact", "commute", {"en": "{value} to work"}, clean=commute_mode)
BUDGET = Slot("fact", "budget")
TRAVEL_BUDGET = amount_slot("budget-travel", {"zh": "旅行预算{value}元左右", "en": "Travel budget: about {value}"})
# Money owed or paid every month, each one amount however said (`builders.amount_in_digits`: 「六千八」, "$30k", "30 grand"),
# so that another amount is a new value of the one memory.
PARENTS_ALLOWANCE = amount_slot(
    "finance-parents-allowance", {"zh": "每月给爸妈{value}元生活费", "en": "Sends parents {value} a month"}
)
MORTGAGE = amount_slot("finance-mortgage", {"zh": "房贷每月还{value}元", "en": "Mortgage payment: {value} a month"})
STUDENT_LOANS = amount_slot("finance-student-loans", {"en": "Student loans left: about {value}"})
# A tight budget said without the word: "Money is tight for me", "I'm trying to spend as little as possible" (in the words
# of "I'm on a tight budget", which the budget rule keeps as said).
TIGHT_BUDGET = Slot("fact", "budget", {"zh": "预算紧张", "en": "Is on a tight budget"})
RELATIONSHIP = Slot("fact", "relationship-status")
ALMA_MATER = Slot(
    "fact", "alma-mater", {"zh": "毕业于{value}", "en": "Graduated from {value}"}, ttl_days=LIFELONG_TTL_DAYS
)
# 「我是北大毕业的」: the school is what comes before 毕业, not a time (「我刚毕业」, 「去年毕业的」).
ALMA_MATER_ZH = replace(ALMA_MATER, clean=zh_alma_mater)
# Who the user shares a home with besides family: "I live with roommates", 「我一个人住」.
HOUSEHOLD = Slot("fact", "household")
# Living alone, said one way ("I live by myself", "I live on my own": "Lives alone").
LIVES_ALONE = Slot("fact", "household", {"zh": "一个人住", "en": "Lives alone"})
HOME = Slot("fact", "home")
# Night shifts, weekends: when a reminder or a plan can reach the user.
WORK_SCHEDULE = Slot("fact", "work-schedule")
# The size of the team the user leads: "I manage a team of 5 engineers", 「我带一个十人的团队」.
TEAM_SIZE = Slot(
    "fact", "work-team", {"zh": "带一个{value}人的团队", "en": "Leads a team of {value}"}, clean=count_in_digits
)
WORK_FIELD = Slot("fact", "work-field", {"zh": "从事{value}", "en": "Works in {value}"})
# When the user starts work: one hour, said one way (`builders.work_start`).
WORK_START = Slot("fact", "work-start", {"zh": "{value}上班", "en": "Starts work {value}"}, 3, clean=work_start)
# When the user gets off work: one hour, said one way (`builders.work_end`).
WORK_END = Slot("fact", "work-end", {"zh": "{value}下班", "en": "Finishes work {value}"}, 3, clean=work_end)
_ENDS_PARTNER = slot_retirement("fact", "family-partner", if_held=True)
_ENDS_STATUS = slot_retirement("fact", "relationship-status", if_held=True)
BUSINESS = keyed_fact("business", 4)

_FAMILY_WORDS = "|".join(FAMILY.values())
_RETIRE_VERBS_ZH = r"喜欢|爱|吃|喝|用|玩|听|看|抽|碰|养|打算|准备|考虑|想|做|开发|写"
# What 不用 says there is no need to do (a feeling, a courtesy, a reply this long, a trip or a chore as often as before):
# 「不用担心了」 retires nothing, 「不用写那么长」 is a reply rule, 「现在不用每天过关」 uses nothing.
_ZH_NO_NEED_TO = (
    r"担心|客气|谢|着急|急|紧张|害怕|怕|管|理|麻烦|道歉|操心|在意|介意|费心|(?:写|说|回)得?(?:那么|这么|太)长|对我|跟我"
    r"|每天|天天|每次|再|总是|一直|经常|特意|专门|去|来|上班|加班|早起|排队|跑|通勤|过关"
)
_RETIRE_VERBS_EN = r"like|love|enjoy|eat|drink|use|play|watch|listen to|smoke|read|do"

# One rule per line: the table reads better than its formatted form.
# fmt: off
RULES: tuple[Rule, ...] = (
    # Smoking given up years ago (before the rules that only end the habit).
    _r("pref", "zh", r"^(?:我)?(?:已经)?戒烟(?:都)?(?:有)?(?P<value>(?:\d{1,2}|[一二两三四五六七八九十]{1,3}))年了?$", smoking_quit_years_ago),
    _r("pref", "zh", r"^(?:我)?(?P<value>(?:\d{1,2}|[一二两三四五六七八九十]{1,3}))年前(?:就)?(?:把烟戒了|戒的烟|戒烟的?|戒了烟|戒掉了?烟)$", smoking_quit_years_ago),
    _r("pref", "zh", r"^烟(?:我)?(?:是)?(?P<value>(?:\d{1,2}|[一二两三四五六七八九十]{1,3}))年前(?:就)?戒(?:掉)?的$", smoking_quit_years_ago),
    _r("pref", "en", r"^I (?:quit|stopped|gave up) smoking (?P<value>(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)) years ago$", smoking_quit_years_ago),
    _r("pref", "en", r"^I(?:'ve| have) been (?:smoke-free|a non-smoker|off cigarettes) for (?P<value>(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)) years(?: now)?$", smoking_quit_years_ago),
    _r("pref", "zh", r"^(?:我)?(?:平时|一直|从小)?(?:都)?(?:是)?(?:个)?(?P<value>左撇子|惯用左手|习惯用左手)(?:的)?$", LEFT_HANDED),
    _r("pref", "zh", r"^(?=.*血)(?:我)?(?:的)?(?:血型)?(?:是)?(?P<value>AB|A|B|O|ab|a|b|o)型(?:血)?(?:的)?$", BLOOD_TYPE),
    _r("pref", "en", r"^my blood type is (?P<value>(?:AB|A|B|O)(?:[+-]| positive| negative)?)$", BLOOD_TYPE),
    _r("pref", "en", r"^I(?:'m| am) (?P<value>(?:AB|A|B|O)(?:[+-]| positive| negative)?) blood type$", BLOOD_TYPE),
    _r("pref", "en", r"^I(?:'m| am) (?:a )?(?P<value>left-handed|lefty)$", LEFT_HANDED),
    # ---- preferences: retirements, then dislikes, then likes and habits -------------------
    # How a hot drink is taken: 「我喝咖啡加燕麦奶」, "I take oat milk in my coffee", "I take my coffee black".
    _r("pref", "en", r"^I (?:usually |always |only |normally )?(?:take|drink|have|like) (?:my )?(?P<drink>coffee|tea) (?P<value>black|plain|straight|with (?:[\w-]+ ){0,2}?(?:milk|cream|sugar|honey|lemon|creamer)(?: and (?:[\w-]+ )?(?:milk|cream|sugar|honey|lemon))?)(?: now| these days)?$", taken_with),
    _r("pref", "en", r"^I (?:usually |always |only |normally )?(?:take|put|use|add|get) (?P<value>(?:[\w-]+ )?(?:milk|cream|sugar|honey|creamer|syrup)) in (?:my )?(?P<drink>coffee|tea)(?: now| these days)?$", taken_with),
    _r("pref", "zh", r"^(?:我)?(?:平时|一般|都)?(?:喝)?(?P<drink>咖啡|茶)(?:我)?(?:一般|都|只|现在)?(?:要|喝)?(?:加|放)(?P<value>(?!点|些)[^，。]{1,6})$", taken_with),
    # 「晚上八点以后不吃东西」, 「我过午不食」, "I don't eat after 8pm": when the user stops eating, one slot whatever the hour
    # (after it: 「我中午不吃饭」 skips a meal).
    _r("pref", "zh", r"^(?:我)?(?:一般|基本上?|平时|现在)?(?P<value>(?:(?:晚上|下午)?[\d一二三四五六七八九十两]+点(?:半)?|晚饭|晚餐|中午)(?=以后|之后|后)|睡前|睡觉前)(?:以后|之后|后)?(?:我)?(?:一般|基本上?)?就?不(?:再)?吃(?:任何)?(?:东西|饭|零食)了?$", EATING_CUTOFF),
    _r("pref", "zh", r"^(?:我)?(?:一般|基本上?|平时|现在|一直)?(?P<value>过午不食)$", EATING_NOTHING_AFTER_NOON),
    _r("pref", "en", r"^I (?:(?:usually|generally|try to|always) )?(?:don't|do not|never|try not to|stop) eat(?:ing)?(?: anything)? after (?P<value>\d{1,2}(?::\d\d)? ?(?:am|pm)?|dinner|sunset|\w+ o'clock)$", EATING_CUTOFF),
    _r("pref", "zh", r"(?:不再|再也不|再也没)(?P<verb>" + _RETIRE_VERBS_ZH + r")?(?P<item>[^，。]+?)了?$", _retire_any),
    _r("pref", "zh", r"不(?:打算|准备|考虑|想)再?(?P<item>[^，。]+?)了$", _retire_goal),
    # 「过了中午我就不喝咖啡了」, 「下午三点以后就不吃东西了」: none after those hours, no quitting (`builders._hours_key`).
    _r("pref", "zh", r"^(?:我)?(?:过了中午|中午(?:以后|之后)|(?:下午|晚上)?[\d一二三四五六七八九十两]+点(?:以后|之后|后)|晚饭后|午饭后|睡前|睡觉前)(?:我)?(?:一般|基本上?)?就?不(?:再)?(?P<verb>吃|喝|碰)(?P<item>[^，。]+?)了?$", _retire_any),
    # Not 「不用担心了」, 「不用谢了」: no need to, not no longer using; not after a condition's 就 (the hours
    # above), unless 早就 (long since).
    _r("pref", "zh", r"(?<!(?<!早)就)(?:不(?:怎么|太|再)?|很少)(?P<verb>喜欢|爱|吃|喝|用(?!" + _ZH_NO_NEED_TO + r")|玩|听|看|抽|碰|打|踢|弹|练|下(?=棋))(?P<item>[^，。]+?)了$", _retire_any),
    # 「我不跑步了」, 「我最近不跑了」 (`clauses._ZH_SPORT_SAID_BY_ITS_VERB`): a sport of its own verb given up.
    _r("pref", "zh", _ZH_ME + r"不(?:再)?(?P<item>跑步|游泳|骑车|爬山|健身)了$", _retire_any),
    _r("pref", "zh", r"^(?:我|我们)?(?:已经)?(?:不做|不写|不开发|停掉|放弃)了?(?P<item>[^，。]+?)(?:这个)?项目了?$", _retire_project),
    # 「我把记账App停掉了」: the project named before the verb.
    _r("pref", "zh", r"^(?:我|我们)?(?:已经)?把(?:那个|这个)?(?P<item>[^，。]+?)(?:项目)?(?:停掉|关掉|砍掉|放弃|停了|下线)了$", _retire_project),
    _r("pref", "zh", r"放弃了?(?P<item>[^，。]+?)了?$", _retire_goal),
    # "I quit the band", "I left my book club": the one activity held that names the group ends.
    _r("pref", "en", r"^I(?:'ve| have)? (?:just |finally )?(?:quit|left|dropped out of|stopped going to) (?:the|my|our) (?P<item>band|choir|book club|running club|club|team|orchestra|league|gym|dance class|class)\b(?: (?:last|this) \w+| \w+ ago)?$", named_retirement("preference-", "sport-", "music-", "hobby-", one_of=True)),
    # "I mostly read non-fiction": a kind of book read.
    _r("pref", "en", r"^I " + _EN_ADV + r"read (?:mostly |mainly |a lot of )?(?P<item>non-fiction|nonfiction|fiction|sci-fi|science fiction|fantasy|mysteries|thrillers|romance|biographies|history books|poetry|manga|comics|graphic novels|self-help)(?: books)?(?: these days| now| lately)?$", _pref),
    # A plan decided against: 「我们决定不回国了」, "We decided not to move back" end the one goal naming it.
    _r("pref", "zh", r"^(?:我|我们)?(?:已经|现在|最后|还是)?(?:决定|打算)不(?:去|再)?(?P<item>[^，。]{2,8}?)了$", named_retirement("goal-")),
    _r("pref", "en", r"^(?:I|we)(?:'ve| have)? (?:finally )?decided not to (?P<item>[\w' -]{3,30}?)(?: after all| anymore| this year)?$", named_retirement("goal-")),
    # 「钢琴学了半年放弃了」: the goal named before its time given up.
    _r("pref", "zh", r"^(?:我)?(?P<item>[^，。我]{1,6}?)(?:学了|练了|坚持了)[^，。]{0,6}?(?:就|还是|最后)?放弃了$", _retire_goal),
    # 「吉他学不下去了」, 「我不学吉他了」: the learning given up.
    _r("pref", "zh", r"^(?:我)?(?:的)?(?P<item>[^，。我]{1,6}?)(?:实在|真的|还是)?(?:学|练)不下去了$", _retire_goal),
    _r("pref", "zh", r"^(?:我)?(?:已经|现在)?不(?:再)?(?:学|练)(?P<item>[^，。]{1,6}?)了$", _retire_goal),
    # 「奶茶喝腻了」: a liking worn out.
    _r("pref", "zh", r"^(?:我)?(?P<item>[^，。我]{1,8}?)(?:喝|吃|玩|看|听)腻了$", _retire_preference),
    # 「我不熬夜了」: the habit's own verb is the item (「不再熬夜了」 is read above).
    _r("pref", "zh", r"不(?:怎么)?(?P<item>熬夜|晚睡)了$", _retire_preference),
    # Quitting done (「我戒烟了」, 「戒掉咖啡三个月了」), not wanted or under way (「我想戒烟」, 「我在戒咖啡」: goals, below;
    # the goal a quitting done reaches is refine's, `engine._goals_a_quit_reaches`).
    _r("pref", "zh", r"(?<![想要算备在试力])戒(?:掉了?)?(?P<item>" + ZH_OR_LATIN + r"{1,6}?)(?=[\d一二三四五六七八九十两几好多]|了|$)", _retire_preference),
    # 「我想戒烟」, 「我打算戒咖啡」, 「我在戒酒」: quitting is the goal (not yet done: nothing retired).
    _r("goal", "zh", _ZH_ME + r"(?:一直|最近|今年|明年|现在)?(?:很|特别)?(?:想|想要|要|打算|准备|在|正在|努力|试着|尝试)戒(?:掉)?(?P<item>" + ZH_OR_LATIN + r"{1,6}?)(?:了|吧)?$", quitting_goal),
    _r("pref", "en", r"^I (?:(?:really|just|honestly) )?(?:don't|do not|won't) (?P<verb>" + _RETIRE_VERBS_EN + r") (?P<item>.+?) (?:anymore|any more)$", _retire_any),
    _r("pref", "en", r"^I no longer (?P<verb>" + _RETIRE_VERBS_EN + r") (?P<item>.+)$", _retire_any),
    _r("pref", "en", r"^I(?:'ve| have)? (?:stopped|quit|given up|gave up) (?:eating|drinking|using|playing|watching|smoking|reading|taking|doing) (?P<item>(?!last \w+$|\w+ ago$|for good$|completely$|altogether$).+)$", _retire_preference),
    _r("pref", "en", r"^I(?:'ve| have)? (?:stopped|quit|given up|gave up) (?P<item>smoking|drinking|caffeine|coffee|sugar|alcohol|meat)(?: for good| completely| altogether| entirely| cold turkey)?(?: last \w+| \w+ ago| years ago)?$", _retire_preference),
    # A sport given up: "I stopped running", "I quit going to the gym" (where "I started running" lands).
    _r("pref", "en", r"^I(?:'ve| have)? (?:stopped|quit|given up|gave up) (?P<item>(?:going )?(?:running|jogging|swimming|cycling|biking|hiking|climbing|bouldering|skiing|surfing|to the gym|the gym|yoga|pilates|working out))(?: for good| completely| altogether)?(?: last \w+| \w+ ago)?$", _retire_preference),
    # A habit given up; "I don't eat meat anymore" stays a dietary statement (the dislike rule below).
    _r("pref", "en", r"^I (?:(?:don't|do not) (?=\w+ any ?more$)|no longer )(?P<item>smoke|drink)(?: any ?more)?$", _retire_habit),
    _r("pref", "en", r"^I (?P<negation>don't|do not|never) drink(?: at all| alcohol at all)?$", alcohol_kept_from),
    _r("pref", "zh", _ZH_ME + r"(?:从来|一直|基本|平时|几乎)?滴酒不沾(?:的)?$", alcohol_kept_from),
    _r("pref", "en", r"^I(?:'m| am) (?:no longer|not) (?:planning|going|trying|aiming) to (?P<item>.+?)(?: anymore| any more)?$", _retire_goal),
    # "I stopped working on the budgeting app": the project is over (a goal given up is below).
    _r("pref", "en", r"^(?:I|we)(?:'ve| have)? (?:(?:stopped|quit) (?:working on|building|developing)|abandoned|shelved|dropped|gave up on|given up on) (?:the |my |our )(?P<item>[\w' -]*?\b(?:" + _EN_PROJECT_NOUNS + r"))(?: project)?$", _retire_project),
    _r("pref", "en", r"^I(?:'ve| have)? (?:gave|given) up on (?P<item>.+)$", _retire_goal),
    # A goal reached ends it: "I finished my first marathon!", "I passed the N1", 「我考过N1了」.
    _r("pref", "en", r"^I(?:(?:'ve| have)? (?:finally |just |actually |officially )?(?:finished|completed|ran|passed|achieved|reached)| (?:finally|just|recently) (?:got|earned)) (?:my |the |a )?(?P<item>(?!(?:an? |the |my )?new )(?!(?:\w+ )?(?:\w+ )?(?:job|position|role|offer)\b)(?![\w' -]*? (?:on|in(?! (?:under |about |just under )?\d)|at|with|from|for|about|of|to) )[\w' -]{2,40}?)(?: exam| test)?(?: in (?:under |about |just under )?\d[\d:.]*(?: hours?| minutes?| mins?)?)?(?: last \w+| \w+ ago| today| yesterday| this (?:week|month|year)| at last)?$", goal_reached),
    # An exam passed, said without "I": "Passed B2!", "Finally passed the JLPT N2".
    _r("pref", "en", r"^(?:just |finally )?passed (?:my |the )?(?P<item>(?-i:[A-Z0-9])[\w -]{0,20}?)(?: exam| test)?$", goal_reached),
    # "I got my driver's license!": the license is the goal, however it was got.
    _r("pref", "en", r"^I(?:'ve| have)? (?:finally |just |recently )?(?:got|gotten|earned|passed) (?:my )?(?P<item>driver'?s licen[cs]e|driving licen[cs]e|driving test)\b", goal_reached),
    # "I'm fluent in French now": the language goal reached (the language spoken is read below).
    _r("pref", "en", r"^I(?:'m| am) (?:now |finally )?(?:fluent|conversational) in (?P<item>" + _LANGUAGES_EN + r")\b", goal_reached),
    # Races run: 「我跑过三次全马」, "I've run three marathons": the sport, kept beside a goal they may reach (a group
    # of its own, so 「完成过…」 still reaches the goal held).
    _r("sport-record", "zh", _ZH_ME + r"(?:已经)?(?:跑过|跑完过|完成过|参加过)(?:[一二两三四五六七八九十几\d]+(?:次|个|场))?(?P<item>全马|半马|全程马拉松|半程马拉松|马拉松|铁人三项)(?:[一二两三四五六七八九十几\d]+(?:次|个|场))?了?$", _pref),
    _r("sport-record", "zh", r"^(?P<item>全马|半马|全程马拉松|半程马拉松|马拉松|铁人三项)(?:我)?(?:已经|一共|总共)?(?:跑过|跑完过|完成过|参加过)(?:[一二两三四五六七八九十几\d]+(?:次|个|场))?了?$", _pref),
    _r("sport-record", "en", r"^I(?:'ve| have) (?:run|done|finished|completed) (?:\w+ )?(?P<item>(?:half[- ])?marathon|triathlon|ultramarathon)s?\b", _pref),
    _r("pref", "zh", r"^(?:我)?(?:终于|已经|刚|刚刚|上周|昨天|今年|去年)?(?:考过|通过|考上|拿到|跑完|完成)了?(?P<item>(?!了|啦)[^，。]{1,10}?)(?:了|啦)?$", goal_reached),
    # 「减肥成功了」: the goal named, then reached.
    _r("pref", "zh", r"^(?:我)?(?:终于|已经)?(?P<item>[^，。]{2,6}?)(?:成功了|成功啦)$", goal_reached),
    # 「我考完雅思了」, 「雅思考完了」, 「我雅思考过了」: an exam sat is the goal of preparing for it reached.
    _r("pref", "zh", r"^(?:我)?(?:终于|已经|刚|刚刚|上周|昨天|今年|去年)?考完了?(?P<item>[^，。]{1,10}?)(?:了|啦)$", goal_reached),
    _r("pref", "zh", r"^(?:我)?(?P<item>[^，。我]{1,10}?)(?:终于|已经|也)?考(?:完|过)了$", goal_reached),
    # 「N2过了！」, 「我雅思通过了」, 「驾照拿到了」: the goal held under that item is reached (nothing when none is).
    # Not a reach with no object (「考过了！」, 「通过了」: the verb's first character is no item; `engine._REACHED_IT`).
    _r("pref", "zh", r"^(?:我)?(?:的)?(?P<item>(?!考过了$|通过了$)[^，。我]{1,10}?)(?:终于|已经|也|顺利)*(?:过了|通过了|拿到了|拿下了|考下来了|拿下来了)$", goal_reached),
    # 「车买了」, 「我提车了」, 「我买车了」: the goal of buying a car reached (where held).
    _r("pref", "zh", r"^(?:我)?(?:终于|已经|刚|刚刚|也)?(?:买车|提车|买了车|车(?:也|终于|已经)?买(?:好|到)?)了", goal_reached_as("买车")),
    # A home bought is the house goal reached, and where the user lives now.
    _r("home", "en", r"^(?:I|we) (?:just |finally |recently )?(?:bought|purchased|closed on) (?P<value>(?:a|our|my) (?:first |new )?(?P<item>house|home|apartment|flat|condo)\b.*)$", slots(HOME, goal_reached)),
    _r("home", "zh", r"^(?:我|我们)(?:终于|刚|刚刚|去年|今年)?(?P<value>(?P<item>买了?(?:房子?|新房|公寓)))了?$", slots(HOME, goal_reached)),
    # Moved into a home (rented or bought): the home now, no goal of buying one reached.
    # 「我是租房住的」, 「我租房子住」, "I rent my apartment": renting, where buying lands (「我买房了」).
    _r("home", "zh", _ZH_ME + r"(?:是)?(?:在)?(?P<value>租房(?:子)?(?:住)?)(?:的|呢)?$", HOME),
    # The size of the home (`builders.home_size`): 「我家房子是89平的两居室」, 「现在住的是120平的三居室」, "My apartment is a
    # 650-square-foot one-bedroom", "I live in a one-bedroom, 650 square feet".
    _r("home-size", "zh", r"^(?:我家|我们家|我)?(?:的)?(?:房子)?(?:现在)?(?:是|住的是|住)(?:个|一套)?(?P<area>\d{2,4})(?:平米|平方米?|平|㎡)(?:的)?(?P<rooms>[一两二三四五12345])(?:居室?|室(?:一厅|两厅)?|房)(?:的)?$", home_size),
    _r("home-size", "en", r"^my (?:apartment|place|flat|home|house|condo) is an? (?P<area>\d{3,5})[- ](?:square[- ]foot|square[- ]feet|sq\.? ?ft) (?P<rooms>one|two|three|four|\d)[- ]bedroom$", home_size),
    _r("home-size", "en", r"^(?:I live in|my (?:apartment|place|flat|home) is) an? (?P<rooms>one|two|three|four|\d)[- ]bedroom(?:,| of| with)? (?P<area>\d{3,5}) (?:square feet|sq\.? ?ft)$", home_size),
    _r("home-floor", "zh", r"^(?:我|我们)?(?:现在|目前)?(?:家(?:住)?在|住(?:在)?)(?:第)?(?P<value>\d{1,2}|[一二两三四五六七八九十]{1,3})(?:楼|层)(?:了)?$", HOME_FLOOR),
    _r("home-floor", "en", r"^(?:I|we) (?:now |currently |still )?live on the (?P<value>\d{1,2}(?:st|nd|rd|th)|" + "|".join(EN_ORDINALS) + r") floor(?: now)?$", HOME_FLOOR),
    _r("home-floor", "en", r"^my (?:apartment|flat|place|home|unit) is on the (?P<value>\d{1,2}(?:st|nd|rd|th)|" + "|".join(EN_ORDINALS) + r") floor(?: now)?$", HOME_FLOOR),
    _r("home", "en", r"^(?:I|we) (?:currently |still )?(?P<value>rent(?: (?:a|an|my|our) (?:house|home|apartment|flat|place|room))?)$", HOME),
    _r("home", "en", r"^(?:I|we)(?:'ve| have)? (?:just |finally |recently )?moved into (?P<value>(?:a|our|my) (?:first |new |own )?(?:(?:big|bigger|small|smaller|little) )?(?:house|home|apartment|flat|condo|studio)\b.*)$", HOME),
    _r("home", "zh", r"^(?:我|我们)(?:终于|刚|刚刚|去年|今年|上个月)?(?P<value>搬进了?(?:新家|新房子?|自己的房子|新公寓|一套[^，。]{0,6}))了?$", HOME),
    # A drug the user must not take is a core sensitivity, not a taste (before the dislike, which would read it).
    _r("pref", "zh", r"^(?:我)?(?:也|都|绝对)?(?:不能|不可以|不宜|禁止)(?:吃|用|服用|打|输)(?P<item>" + _ZH_DRUGS + r")", SENSITIVITY),
    _r("pref", "zh", _ZH_ME + r"(?:真的|实在|一点都|从来)?(?:不(?:太|怎么|是很|大)?喜欢|不爱|讨厌|受不了|反感|厌恶|用不惯|吃不惯|喝不惯|吃不了|喝不了|不(?:太|怎么)?能|不(?:太|怎么|大)?(?:吃|喝|看|碰|用(?!" + _ZH_NO_NEED_TO + r")|玩|听|抽|坐))(?:吃|喝|看|听|用|玩|坐|去|碰|抽)?(?P<item>[^，。]+)$", _pref),
    # "I don't eat kiwi because I'm allergic to it": the food avoided is the allergen, not a taste
    # (in the preference group, before the dislike, so that one does not read it too).
    _r("pref", "en", r"^I (?:don't|do not|can't|cannot|never) (?:eat|drink|have|touch) (?P<item>[\w -]+?),? (?:because|since|as) I(?:'m| am) allergic\b", ALLERGY),
    # "I don't drink coffee, it makes me jittery": what it does to the user makes the avoidance a sensitivity.
    _r("pref", "en", r"^I (?:don't|do not|can't|cannot|never|avoid|try not to) (?:eat|drink|have|touch)? ?(?P<item>[\w -]+?),? (?:because |since |as )?(?:it|they) (?:always |usually )?(?:(?:makes?|gives?) me (?:really |so |very )?(?:jittery|anxious|sick|nauseous|bloated|heartburn|migraines?|headaches?|insomnia|palpitations|a rash)|(?:upsets?|hurts?|messes? with) my (?:stomach|gut))$", SENSITIVITY),
    # "I can't have grapefruit because of my medication": a restriction the treatment sets (core, as a doctor's
    # order; before the dislike, which would read it as a taste).
    _r("pref", "en", r"^I (?:can't|cannot|can not|shouldn't|should not|must not|mustn't|am not allowed to) (?:have|eat|drink|take) (?P<item>[\w -]{2,30}?),? (?:because of|due to|with|while on) (?:my |the )?(?:medication|meds|medicine|pills|blood thinners|treatment|chemo|condition)\b", DOCTORS_ORDER),
    # "I've gone off sushi": a liking over, said as a dislike of it now (it replaces "Loves sushi").
    _r("pref", "en", r"^I(?:'ve| have)? (?:kind of |totally |completely |really )?(?:gone|went) off (?P<item>(?!(?:it|them|that)\b)[\w -]+?)$", _pref),
    _r("pref", "en", r"^I " + _EN_ADV + r"(?:(?:don't|do not|can't|cannot|never) " + _EN_ADV + r"(?:like|enjoy|eat|drink|stand|watch|listen to|use|play)|hate|dislike|detest|loathe|avoid|stay away from|steer clear of) (?!out\b)(?:anything (?:with|containing) (?:any )?)?(?P<item>.+)$", _pref),
    _r("pref", "en", r"^I(?:'m| am) not (?:a (?:big |huge )?fan of|into|keen on) (?P<item>.+)$", _pref),
    # "I've come around on mushrooms": a dislike gone, a liking now (the same key).
    _r("pref", "en", r"^I(?:'ve| have)? (?:finally |actually )?(?:come|came) (?:a)?round (?:on|to) (?P<item>[\w' -]{2,40}?)$", _pref),
    # "I can eat spicy food again": what the user could not eat held before is over (the same key).
    _r("pref", "en", r"^I can (?:now |finally )?(?:eat|have|drink) (?P<item>[\w' -]{2,40}?)(?: again| now)+$", _pref),
    # 「我最喜欢的颜色是蓝色」, 「我喜欢的运动是游泳」 (not a person: 「我喜欢的人是她」).
    _r("pref", "zh", r"最?(?:喜欢|爱)的(?P<kind>(?!人|那个人|男生|女生)[^，。是]{1,6})是(?P<item>[^，。]+)$", favorite_of_kind),
    # 「我喜欢的是川菜」: what is liked comes after 的是 (「我最喜欢的是这个」 points at the conversation).
    _r("pref", "zh", _ZH_ME + r"(?:喜欢|爱)的是(?P<item>[^，。]+)$", _pref),
    # 「比起咖啡我更喜欢茶」: the one liked more is the liking ("I prefer tea over coffee").
    _r("pref", "zh", r"^(?:比起|相比于?|跟|和)(?P<other>[^，。我]{1,8}?)(?:比|相比)?我?(?:更|还是更|比较)(?:喜欢|爱)(?:喝|吃|看|听|玩)?(?P<item>[^，。]+)$", _pref),
    _r("pref", "zh", r"^(?P<item>[^，。我]{1,12}?)是我(?:的)?最(?:喜欢|爱)(?:的)?(?P<kind>[^，。]{0,6}?)(?:了|啊)?$", favorite),
    # "Korean cuisine is the best": a cuisine or a drink praised is a favourite (not "My wife is the best").
    _r("pref", "en", r"^(?P<item>[\w'&. -]{2,30}? (?:food|cuisine|dishes|coffee|tea|beer|wine)) (?:is|are) (?:simply |just |honestly |hands down )?the best(?P<kind>)$", favorite),
    _r("pref", "en", r"^(?P<item>[\w'&. -]{2,40}?) (?:is|are) (?:definitely |probably )?my (?:all-time |absolute |very )?(?:favou?rites?|fave)(?: (?P<kind>(?!now\b)[\w-]+(?: (?!now\b)[\w-]+)?))?(?: now| these days| by far)?$", favorite),
    # "Quilting's my main hobby these days": the one hobby above the others is the favourite.
    _r("pref", "en", r"^(?P<item>[\w'&. -]{2,40}?)(?:'s| is) (?:definitely |probably )?my (?:main|biggest|big|number one|#1) (?P<kind>hobby|pastime)(?: now| these days| by far)?$", favorite),
    _r("pref", "zh", _ZH_ME + r"(?:喜欢|爱|热爱|偏爱|钟爱|迷上了?|爱上了?|偏好|习惯|离不开|能(?=吃|喝|接受|坐|用(?!" + _LANGUAGES_ZH + r"))|只(?=[喝吃用](?![^，。]*[了过])))(?!的)(?:(?!" + "|".join(ZH_NOUNS_OPENING_WITH_AN_ITEM_VERB) + r")[" + ZH_ITEM_VERBS + r"])?(?P<item>[^，。]+)$", _pref),
    # 「我的电脑是Mac」: the device the user works on.
    # A device used, said one way (`builders.device_used`): 「我电脑用的是ThinkPad」, 「ThinkPad是我平时用的笔记本」.
    _r("pref", "zh", r"^(?:我)?(?:的)?(?:电脑|笔记本|笔记本电脑|手机|手表|平板)(?:我)?(?:平时)?(?:用的|用)?是(?P<item>" + _ZH_DEVICES + r")$", device_used),
    _r("pref", "zh", r"^(?P<item>" + _ZH_DEVICES + r")是我(?:平时|现在|日常)?用的(?:电脑|笔记本|笔记本电脑|手机|手表|平板)$", device_used),
    _r("pref", "zh", r"^(?:我)?现在(?:用的|用)?(?:是|换成了?|改用)(?P<item>" + _ZH_DEVICES + r")了?$", switched_to(device_used)),
    _r("pref", "zh", r"^我(?:现在|目前|平时)?的(?:电脑|笔记本|手机|系统|IDE|编辑器|浏览器|输入法)(?:是|用的是)(?P<item>" + _ZH_TOOL + r")$", _pref),
    _r("pref", "zh", r"^我?(?:现在|目前|平时|一直)?用的(?:电脑|笔记本|手机|系统|IDE|编辑器|浏览器|输入法)(?:是|一直是)(?P<item>" + _ZH_TOOL + r")$", _pref),
    _r("pref", "zh", r"^我?(?:现在|目前|平时|一直)?用的是(?P<item>" + _ZH_TOOL + r")$", _pref),
    # 「我用的是安卓手机」: the phone or computer the user has.
    _r("pref", "zh", r"^我(?:现在|平时|一直)?用的(?:是|都是|一直是)(?P<item>[^，。]{1,8}?(?:手机|电脑|笔记本|平板))$", _pref),
    # A liking in a setting the user names first: 「我坐飞机喜欢靠窗的位置」, 「我写代码喜欢听音乐」; not a
    # judgement of a habit (「我学习习惯不好」: my study habits are poor).
    _r("pref", "zh", r"^我(?:" + _ZH_SETTINGS + r")(?:的时候|时)?" + _ZH_ADV + r"(?:喜欢|爱|习惯|偏好)(?!不|很|太|挺|比较|非常|特别|还|好|差)(?:(?!" + "|".join(ZH_NOUNS_OPENING_WITH_AN_ITEM_VERB) + r")[" + ZH_ITEM_VERBS + r"])?(?P<item>[^，。]+)$", _pref),
    _r("pref", "zh", _ZH_ME + r"是(?:个|一个|一名)?(?:重度|资深|忠实|铁杆|狂热)?(?P<item>[^，。]+?)(?:的)?(?:爱好者|球迷|迷|控|粉丝|粉)$", _pref),
    _r("pref", "zh", r"有(?P<item>[^，。]+?)的习惯", _pref),
    # 「我在做轻断食」, "I'm doing intermittent fasting": an eating habit kept, not a diet of restrictions.
    _r("pref", "zh", _ZH_ME + r"(?:在|正在|一直在|坚持)?(?:做|搞)?(?P<item>(?:16:8)?轻断食|间歇性断食)", _pref),
    _r("pref", "en", r"^I(?:'m| am)? " + _EN_ADV + r"(?:doing |do |practicing |practice |on |trying )?(?P<item>(?:16:8 )?intermittent fasting|16:8 fasting)\b", _pref),
    # The tool is Latin letters, digits and +#.- (not \w, which takes the Chinese after it: 「用Python写后端」).
    # Not in a rule about the assistant's examples (「以后代码示例都用TypeScript」: a constraint below), nor 服用 (a drug taken: 「我一直在服用二甲双胍」);
    # the user's own code is (「我平时用Python写代码」).
    _r("pref", "zh", r"^(?![^，。]*(?:示例|例子|样例|回答|回复|以后|今后))[^，。]*?(?:一直|平时|平常|一般|通常|主要|习惯|都|常)[^，。]{0,8}?(?<!服)用(?!" + _LANGUAGES_ZH + r")\s*(?P<item>" + _ZH_TOOLS + r"|" + ZH + r"{2,8}$)[^，。]*", _pref),
    # 「我用 Python 写后端」: the tool one works with, not a one-off (「我用Python写了个脚本」).
    _r("pref", "zh", r"^我(?:现在|目前)?用\s*(?P<item>" + _ZH_TOOLS + r")\s*(?:写|做|开发|编程|搞)(?![^，。]*[了过])[^，。]*", _pref),
    # "I've actually started to enjoy running": a taste changed, under the liking's key.
    _r("pref", "en", r"^I(?:'ve| have)? " + _EN_ADV + r"(?:started|begun|began|come|grown|learned|learnt) to (?:enjoy|like|love) (?P<item>[\w' -]{2,40})$", _pref),
    # "I listen to a lot of podcasts", "I read about two books a month", 「我每天刷抖音」: a pastime said by how much.
    _r("pref", "en", r"^I " + _EN_ADV + r"(?:listen to|read|watch) (?:a lot of |lots of |tons of |so many |plenty of )?(?P<item>podcasts|audiobooks|books|novels|documentaries|anime)(?: (?:on|during|while|in) (?:my |the )?(?:commute|commuting|drive|runs?|workouts?|the train|the bus|the way to work))?$", _pref),
    _r("pref", "en", r"^I " + _EN_ADV + r"read (?:about |around |roughly |at least )?(?:\d+|one|two|three|four|five|a couple of|a few|a) (?P<item>books?) (?:a|per|every) (?:week|month|year)$", _pref),
    _r("pref", "zh", _ZH_ME + r"(?:每天|天天|没事就|有空就)?(?:都|会)?刷(?P<item>抖音|快手|短视频)(?:刷到很晚)?$", _pref),
    _r("pref", "en", r"^I " + _EN_ADV + r"(?:love|like|enjoy|adore|prefer|dig) (?!.*\b(?:answers?|repl(?:y|ies)|respon(?:d|ses)|explanations)(?: in (?:\w+ )?\w+)?$)(?!.*\b(?:24-hour|12-hour|celsius|fahrenheit|type hints|type annotations|citations?|(?-i:APA|MLA))\b)(?!(?:my |your |the )?(?:answers|replies|responses) (?:to be )?(?:formatted |written |laid out )?(?:in|as|with|using)\b)(?!(?:the )?(?:metric|imperial|celsius|fahrenheit|24-hour|12-hour)\b)(?P<item>.+)$", _pref),
    _r("pref", "en", r"^(?:I(?:'m| am) )?" + _EN_ADV + r"(?:a )?(?:(?:big |huge |massive )?fan of|into|obsessed with|crazy about|nuts about|mad about) (?P<item>.+)$", _pref),
    # "I could eat Korean food every day": a liking said by how much of it.
    _r("pref", "en", r"^I could (?:eat|drink|watch|listen to) (?P<item>[\w' -]{3,30}?) (?:every day|every single day|all day|forever|for every meal)$", _pref),
    # "I only drink oat milk", "Oat milk is the only milk I drink": what the user keeps to is a liking (a diet
    # kept to is the diet's: "I only eat halal").
    _r("pref", "en", r"^I " + _EN_ADV + r"only (?:drink|eat) (?!(?:halal|kosher|vegan|vegetarian|plant-based)\b)(?P<item>[\w' -]{3,30}?)(?: now| these days| at home)?$", _pref),
    _r("pref", "en", r"^(?P<item>[\w' -]{3,30}?) is the only (?:\w+ )?(?:thing |drink |food )?I (?:ever )?(?:drink|eat)$", _pref),
    # "I drink coffee", "I drink a lot of green tea": a drink the user has, said plainly (how much of wine or
    # beer is DRINKING's above).
    _r("pref", "en", r"^I (?:also |still |do |mostly |mainly )?drink (?:a lot of |lots of |plenty of )?(?P<item>(?:black |decaf |iced |green |black |herbal |oolong |jasmine |oat |soy |almond )?(?:coffee|tea|matcha|kombucha|milk|decaf|espresso|lattes?|smoothies|juice|sparkling water|seltzer|soda water))(?: too| as well| a lot)?$", _pref),
    # "I'm sick of ramen now", "I'm over sushi": a liking turned around (dedup reads it as a "not").
    _r("pref", "en", r"^I(?:'m| am) (?:so |really |totally |kind of |a bit |getting )?(?:sick of|tired of|fed up with|over|done with) (?P<item>[\w' -]{2,30}?)(?: now| already| lately| these days)?$", _pref),
    # "I've been getting into pottery lately": a liking on its way.
    _r("pref", "en", r"^I(?:'ve| have) been (?:really )?getting (?:really )?into (?!trouble|debt|fights?|arguments?|shape|bed|character|it\b|that\b|this\b|(?:a |some )?new (?:hobby|hobbies|things|stuff)\b|something\b|things\b|stuff\b|(?:college|university|grad school|med school|law school)\b)(?P<item>[\w' -]{2,40}?)(?: lately| recently| these days)?$", _pref),
    _r("pref", "en", r"^I(?:'m| am) (?:a )?(?:big |huge |massive |die-hard |lifelong )?(?P<item>" + CAP + r"[\w.'-]*(?: " + CAP + r"[\w.'-]*){0,3}) fan$", _pref),
    # "I support Arsenal", "I root for the Lakers": the team is the liking.
    _r("pref", "en", r"^I " + _EN_ADV + r"(?:support|root for|cheer for) (?:the )?(?P<item>" + CAP + r"[\w.'-]*(?: " + CAP + r"[\w.'-]*){0,2})$", _pref),
    _r("pref", "en", r"^my (?:all-time )?favou?rite (?P<kind>[\w ]+?) (?:is|are) (?P<item>.+)$", favorite_of_kind),
    _r("pref", "en", r"^I(?:'m| am) (?:(?:much |definitely |very much )?more of )?an? (?P<item>morning person|night owl|early bird|early riser|cat person|dog person|homebody)$", _pref),
    # "I'm not a morning person", "I'm definitely not an early riser": the same slot, turned around.
    _r("pref", "en", r"^I(?:'m| am) (?:definitely |really |just |so |truly )?not (?:much of )?an? (?P<item>morning person|early bird|early riser)$", _pref),
    _r("pref", "zh", r"^(?:我)?是(?:个|一个)?(?P<item>夜猫子|早起的人|早睡早起的人)$", _pref),
    # "I tend to stay up really late": the night owl's habit said of the user's evenings (the lexicon lists each form).
    _r("pref", "en", r"^I " + _EN_ADV + r"(?:tend to |like to )?(?P<item>stay up (?:really |very |super |pretty )?late|go to bed (?:really |very |super |pretty )?late)(?: a lot| most nights| every night| on weeknights)?$", _pref),
    # 「我一般睡得很晚」: the night owl's habit said of the user's sleep (the lexicon lists each form).
    _r("pref", "zh", _ZH_ME + r"(?P<item>睡得(?:很|特别|比较|挺|超)?晚|很晚才?睡|早睡早起)觉?$", _pref),
    # 「我每天早上六点起床」, 「我一般晚上一点才睡」: the routine at a clock time, keyed as the English one is
    # (preference-wake-up, preference-bedtime); a day named (「明天」, 「今天」) is a plan, not a routine.
    _r("pref", "zh", _ZH_ME + r"(?:改成|改为|变成|换成)?(?:每天|每晚|天天)?都?(?:早上|早晨|晚上|凌晨|半夜|夜里|中午)?(?:\d{1,2}|[一二三四五六七八九十两]{1,3})(?:点|:[0-5]\d)(?:半|多|左右|一刻|[0-5]?\d分?)?(?:左右|前|以前|之前|后|以后)?(?:就|才|准时|按时)?(?P<item>起床|起|上床睡觉|睡觉|睡)了?$", timed_habit),
    # 「我上夜班，白天睡觉」, "I sleep during the day": the bedtime of a night worker (it replaces a night-time one).
    _r("pref", "zh", _ZH_ME + r"(?:改成|变成|换成)?(?:都)?(?:白天|上午|早上)(?:才)?(?P<item>睡觉|睡)(?:了)?$", timed_habit),
    _r("pref", "en", r"^I (?:now |usually |mostly )?(?P<item>sleep) (?:during the day|in the daytime|days)(?: now)?$", timed_habit),
    _r("pref", "en", r"^(?!.* (?:for a living|professionally)$)I " + _EN_ADV + r"(?:code|program|develop|write code) (?:mostly |mainly )?in (?P<item>" + CAP + r"[\w+#.-]*(?:(?:,\s*|,?\s+(?:and|or)\s+)" + CAP + r"[\w+#.-]*)*)", _pref),
    # "I write Go at work", 「我主要写Go」, 「我是写Java的」, 「我现在主要写Go了」 (a 了 of now, not of 「写了个脚本」): the language
    # one works in ("I write a blog" names none).
    _r("pref", "en", r"^I " + _EN_ADV + r"write (?P<item>" + _PROGRAMMING_LIST_EN + r")(?!\w)(?! (?:code |a |an |the )?(?:script|program|function|snippet|example)s?\b).*$", _pref),
    _r("pref", "zh", r"^(?:我(?:现在|目前)?(?:一直|平时|平常|一般|通常|主要|日常|工作中|工作上)?|(?:平时|平常|一般|通常|主要|日常|工作中|工作上))(?:都|也)?写(?P<item>" + _PROGRAMMING_LIST_ZH + r")(?![^，。]*(?:过|了(?!$)))(?:的|比较多|多一些|为主)?了?$", _pref),
    _r("pref", "zh", r"^(?:偶尔|有时候?|也)写(?:点|些|一点)?(?P<item>" + _PROGRAMMING + r")$", _pref, after="preference-"),
    _r("pref", "zh", r"^我是(?:写|搞)(?P<item>" + _PROGRAMMING + r")的$", _pref),
    # A drink had in place of another, said one way (`builders.drunk_instead`): "Instead of soft drinks, I go for
    # sparkling water" (its lead put last by the clause), "I drink sparkling water instead of soda".
    _r("pref", "en", r"^I (?:(?:usually|always|mostly|now|just) )?(?:drink|go for|have|choose|pick|reach for|stick to|stick with|opt for) (?P<item>[\w -]{3,25}?) instead of (?P<instead>[\w -]{3,25})$", drunk_instead),
    # The airline flown: "I always fly Delta", "Delta is my airline", "When I travel by plane I stick with Delta".
    _r("pref", "en", r"^(?:when I (?:travel by plane|fly),? )?I (?:always |usually |mostly |only )?(?:fly|fly with|stick with|stick to|book) (?P<value>Delta|United|American Airlines|American|Southwest|JetBlue|Alaska Airlines|Alaska|British Airways|Lufthansa|Emirates|Air France|KLM|Qantas|Air Canada|Singapore Airlines|Cathay Pacific|Ryanair|easyJet)(?: every time| whenever I can| when I fly)?(?: when I travel by plane| when I fly)?$", AIRLINE),
    _r("pref", "en", r"^(?P<value>Delta|United|American Airlines|Southwest|JetBlue|Alaska Airlines|British Airways|Lufthansa|Emirates|Air France|KLM|Qantas|Air Canada|Singapore Airlines|Cathay Pacific) is my airline$", AIRLINE),
    # What groceries may cost a week.
    _r("pref", "en", r"^(?:my grocery budget is|I budget|I try to keep groceries to|I spend) (?:about |around |roughly )?(?P<value>" + _EN_AMOUNT + r") (?:a|per|each) week(?: for groceries| on groceries)?$", GROCERY_BUDGET),
    # A habit's amount or kind changed: "I've bumped my morning meditation up to 30 minutes", "I've moved from 16:8 to 18:6
    # fasting" (a new value of the habit, said as the user says it).
    _r("pref", "en", r"^I(?:'ve| have)? (?:bumped|increased|raised|upped|cut|reduced|lowered|dropped|extended|shortened) my (?:morning |evening |daily |nightly |weekly )?(?P<item>meditation|meditating|runs?|walks?|naps?|workouts?|yoga|practice|reading|fasting window) (?:time )?(?:up |down |back )?to (?:about |around )?\d[\w:. -]{0,20}$", _pref),
    _r("pref", "en", r"^I(?:'ve| have)? (?:moved|switched|gone|changed) from \d{2}:\d (?:fasting )?to \d{2}:\d (?P<item>fasting|intermittent fasting)$", _pref),
    # A device used, said one way (`builders.device_used`).
    _r("pref", "en", r"^I (?:track|log|record) my (?:runs|workouts|rides|steps|sleep|training) (?:with|on) (?:an? |my )(?P<item>" + _EN_DEVICES + r")$", device_used),
    _r("pref", "en", r"^I (?:track|log|record) my (?:runs|workouts|rides|steps|sleep|training) (?:with|on) (?:an? |my )(?P<item>" + _EN_DEVICES + r") now$", switched_to(device_used)),
    _r("pref", "en", r"^my (?:runs|workouts|rides) get (?:recorded|logged|tracked) (?:on|by|with) (?:my |an? )(?P<item>" + _EN_DEVICES + r")$", device_used),
    _r("pref", "en", r"^I use an? (?P<item>" + _EN_DEVICES + r") to (?:log|track|record) my (?:runs|workouts|rides|steps|sleep)$", device_used),
    _r("pref", "en", r"^I (?:(?:still|now|mostly|mainly|usually|also) )?use an? (?P<item>" + _EN_DEVICES + r")(?: phone)?(?: now)?$", device_used),
    _r("pref", "en", r"^(?:(?:for|at|on) [\w ]{1,20}?,? )?I " + _EN_ADV + r"use (?:an? |the )?(?P<item>" + _EN_PRODUCT + r"[\w+#.-]*(?: " + CAP + r"[\w+#.-]*)?(?: (?:phone|laptop|tablet|computer|PC|watch))?" + _EN_USED_FOR + r"(?:(?:,| and|, and) (?:an? |the |my )?" + _EN_PRODUCT + r"[\w+#.-]*(?: " + CAP + r"[\w+#.-]*)?" + _EN_USED_FOR + r")*)\b", _pref),
    # A device owned, or the one the user's phone or computer is: "I have a MacBook Pro", "My phone is a Pixel 8".
    _r("pref", "en", r"^I (?:have|own|got|just got|bought|just bought) an? (?:new )?(?P<item>" + _EN_DEVICES + r")(?: (?:for work|at home))?$", _pref),
    _r("pref", "en", r"^my (?:work )?(?:phone|laptop|computer|tablet|PC) is an? (?:new )?(?P<item>" + _EN_DEVICES + r")(?: phone)?$", device_used),
    _r("pref", "en", r"^my (?:work )?(?:phone|laptop|computer|tablet|PC) is an? (?:new )?(?P<item>" + _EN_DEVICES + r"|" + CAP + r"[\w-]*(?: [\w-]+){0,2})$", _pref),
    # "I read all my books on a Kindle", "My Kindle is what I use for reading" (as the clause says it: "I use my Kindle
    # for reading"): the device the user reads on.
    _r("pref", "en", r"^I (?:read|do (?:all |most )?(?:of )?(?:my )?(?:book )?reading) (?:all |most )?(?:of )?(?:my )?(?:books |ebooks |e-books )?(?:on|with) (?:an? |my )(?P<item>Kindle|iPad|Kobo|e-reader)$", reading_device),
    _r("pref", "en", r"^I (?:use|read on) (?:my |an? )(?P<item>Kindle|iPad|Kobo|e-reader)(?: (?:for|to) (?:read|reading)(?: books)?)?$", reading_device),
    # "I'm on a Pixel": the device the user is on.
    _r("pref", "en", r"^I(?:'m| am) (?:now |still )?on an? (?P<item>" + _EN_DEVICES + r")(?: phone)?(?: now)?$", device_used),
    _r("pref", "en", r"^I " + _EN_ADV + r"use (?!(?:an? )?(?:wheelchair|hearing aids?|cane|walker|crutches)\b)(?:an? |the )?(?P<item>(?!(?:it|them|this|that|these|those|my|your|to|some|a lot|whatever|anything|something|everything|nothing)\b)[a-z][\w-]*(?: [a-z][\w-]*){0,2}?)(?: (?:everywhere|every day|daily|all the time|at (?:home|work)|for (?:everything|work|coding|notes|writing|reading)))?$", _pref),
    # How long the user has kept it up says the same liking: "I play the piano, been doing it for 20 years",
    # "I've been playing piano since I was six".
    # Played when, with nothing named ("I play every Tuesday night"): nothing to keep.
    _r("pref", "en", r"^I " + _EN_ADV + r"play (?:the )?(?!(?:every|each|on|most|daily|twice|once|at)\b)(?P<item>[a-z][\w -]+?(?:, (?!(?:every|each|on|most|daily|twice|once|at|been|for|since|with)\b)[a-z][\w -]+?)*)" + _EN_OFTEN + _EN_KEPT_UP + r"?$", _pref),
    _r("pref", "en", r"^I(?:'ve| have) been playing (?:the )?(?P<item>[a-z][\w -]+?)" + _EN_KEPT_UP + r"$", _pref),
    # Drinking now and then ("I drink wine now and then", 「我偶尔喝点红酒」): how much the user drinks, on the slot
    # where "I don't drink" is kept, so one replaces the other.
    _r("pref", "en", r"^I (?:do |still |also )?(?:drink|have|enjoy) (?P<value>(?:a |an |the odd |the occasional |an occasional )?(?:glass of )?(?:wine|red wine|white wine|beer|cocktail|drink|whiskey|sake)s?) " + _EN_NOW_AND_THEN + r"$", DRINKING),
    _r("pref", "en", r"^I (?:do |still |also )?(?P<value>drink) " + _EN_NOW_AND_THEN + r"$", DRINKING),
    _r("pref", "en", r"^I(?:'m| am) (?P<value>a social drinker)$", DRINKING),
    _r("pref", "zh", r"^(?:我)?(?:现在|平时)?(?:也|还)?(?:偶尔|有时候?|时不时|逢年过节|应酬的?时候)(?:也|还|会)*喝(?:点|一点|一些|些|两口|几杯|一杯)?(?P<value>红酒|啤酒|白酒|葡萄酒|酒|鸡尾酒|小酒)了?$", DRINKING),
    # A food taken up now ("I eat fish now", 「我现在也吃鱼了」): where a diet that kept from it is qualified.
    _r("pref", "en", r"^I (?:do |also )?(?:eat|drink) (?P<item>[a-z][\w -]{1,20}?) (?:now|again|these days)$", habit_taken_up),
    _r("pref", "zh", r"^(?:我)?(?:现在|最近|如今)(?:也|又|开始)+(?:吃|喝)(?P<item>[^，。]{1,6}?)了$", habit_taken_up),
    # 「电脑是Windows的」, 「我的手机是华为的」: the device, said by what it is.
    _r("pref", "zh", r"^(?:我的?)?(?:电脑|笔记本|手机)(?:用的)?是(?P<item>Mac|MacBook|Windows|Linux|iPhone|安卓)(?:的|系统的?)?$", _pref),
    # 「我用Windows电脑」, 「我用Mac」: the device the user has (a bare 用 of anything else is a task of the moment).
    _r("pref", "zh", r"^(?:我)?(?:现在|平时|工作上|在家)?用(?P<item>Mac(?:Book(?: (?:Pro|Air))?)?|Windows|Linux|iPad|Kindle|苹果电脑|苹果手机|安卓手机|华为手机|小米手机)(?:电脑|笔记本|系统)?$", _pref),
    # An instrument the user can play: 「我会弹吉他」, "I can play the guitar" (where "I play the guitar" lands).
    _r("pref", "zh", r"^(?:我)?(?:也|还)?会(?:弹|拉|吹|打)(?P<item>吉他|钢琴|小提琴|大提琴|尤克里里|古筝|二胡|笛子|萨克斯|架子鼓|鼓)(?:的)?$", _pref),
    _r("pref", "en", r"^I (?:also )?can play (?:the )?(?P<item>guitar|piano|violin|cello|ukulele|drums|saxophone|flute|bass)$", _pref),
    _r("pref", "en", r"^I(?:'m| am) (?:also )?an? (?!professional )(?P<item>(?:[a-z]+ )?(?:" + _EN_PLAYER + r"))$", _pref),
    # How the user takes a drink: 「我喝咖啡不加糖」 (as "I like my coffee black").
    _r("pref", "zh", r"^(?:我)?(?:平时|一般|每天)?喝(?P<item>咖啡|茶|奶茶|豆浆|牛奶)(?:一般|都|从来|从不)?(?:不加糖|不放糖|不加奶|加奶|加糖|要?少糖|要?半糖|要?无糖|去冰|少冰|只喝黑的|只喝美式)(?:的)?$", _pref),
    # "I collect vinyl records", "I binge-watch anime on weekends", 「我收集手办」: a hobby kept up.
    _r("pref", "en", r"^I " + _EN_ADV + r"(?:collect|binge-?watch|binge) (?P<item>[a-z][\w -]+?)" + _EN_OFTEN + r"$", _pref),
    _r("pref", "zh", _ZH_ME + r"(?:在|一直)?(?:收集|收藏)(?P<item>[^，。]{1,8})$", _pref),
    _r("pref", "en", r"^I (?:really |honestly |literally )?(?:can't|cannot) live without (?P<item>[\w -]+?)$", _pref),
    _r("pref", "en", r"^I (?:usually|always|normally|typically|often|generally) (?P<item>wake up|get up|go to bed|go to sleep|work out|meditate)\b.*$", timed_habit),
    # "I wake up at 5am every day": the routine said with its hour, no adverb (not "I woke up at 5 today").
    _r("pref", "en", r"^I (?P<item>wake up|get up|go to bed|go to sleep|work out|meditate) (?:at (?:around |about )?midnight|at (?:around |about )?\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)?|every (?:day|morning|night|evening)|in the (?:mornings?|evenings?|afternoons?)|at night)(?: every (?:day|morning|night|evening)| on weekdays)?" + _EN_ROUTINE_NOW + r"$", timed_habit),
    # "I've started going to bed at 11 since the baby arrived": the routine changed, at its hour.
    _r("pref", "en", r"^I(?:'ve| have)? (?:just |recently |finally )?(?:started|begun|began|switched to) (?P<item>going to bed|going to sleep|waking up|getting up) (?:at (?:around |about )?\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)?)(?: every (?:day|morning|night|evening)| on weekdays)?" + _EN_ROUTINE_NOW + r"$", timed_habit),
    # "I do yoga twice a week", "I practice yoga", "I've been doing CrossFit for two years": an activity kept up.
    _r("pref", "en", r"^I(?:'ve been| have been)? " + _EN_ADV + r"(?:do|practice|practise|doing|practicing|practising) (?:a )?(?P<item>yoga|pilates|tai chi|karate|judo|taekwondo|kung fu|crossfit|meditation|ballet|boxing|martial arts|calligraphy|cardio|HIIT|strength training|weight training|weights)(?: workouts?| sessions?| classes)?(?: (?:\w+ (?:a|per) (?:week|day|month)|every \w+|on (?:weekends|\w+days)|daily|regularly|for (?:\w+ )?(?:years?|months?)))?$", _pref),
    # "I travel on a tight budget", "I'm a budget traveler": how the user travels (habit-budget-travel).
    _r("pref", "en", r"^I(?:'m| am)? " + _EN_ADV + r"(?:a )?(?P<item>budget travell?er|travel (?:on a (?:tight )?budget|on a shoestring|cheap(?:ly)?))$", _pref),
    # "I volunteer at an animal shelter on weekends".
    _r("pref", "en", r"^I " + _EN_ADV + r"volunteer (?:at|with|for) (?:an? |the |my )?(?P<item>[\w' -]{3,40}?)(?: (?:on weekends|every \w+|once a \w+|\w+ (?:a|per) (?:week|month)))?$", _pref),
    # "I always fly economy", "I prefer an aisle seat": how the user travels.
    _r("pref", "en", r"^I " + _EN_ADV + r"fly (?P<item>economy|business class|business|first class|premium economy)\b", _pref),
    # A habit started, taken up again or simply had: 「我又开始抽烟了」, 「我最近开始跑步了」, "I started smoking
    # again", "I recently took up yoga", 「我抽烟」, "I smoke" (`habit_taken_up`: a lexicon activity only).
    _r("pref", "zh", _ZH_ME + r"(?:最近|现在|已经|这几天|这段时间|上个月|今年)?(?:(?:又|重新|也)?(?:开始|恢复)|改成?|改为)(?:每天|天天|经常|坚持)?(?P<item>[^，。]{1,6}?)了?$", habit_taken_up),
    _r("pref", "zh", r"^我(?:还|也|平时|一直|每天|天天)?(?P<item>抽烟|吸烟)(?:的)?$", habit_taken_up),
    _r("pref", "en", r"^I(?:'ve| have)? (?:just |recently |finally )?(?:started|began|begun|took up|taken up|picked up|got back into|gotten back into) (?!(?:learning|studying|to learn)\b)(?P<item>[a-z][\w -]{1,30}?)(?: again| regularly| every (?:day|morning|week)| recently)?$", habit_taken_up),
    _r("pref", "en", r"^I (?:still |also )?(?P<item>smoke)(?: cigarettes| a lot| every day| daily)?$", habit_taken_up),
    # Where the user has lunch: 「我中午一般吃食堂」, 「我午饭一般在食堂吃」, "I usually have lunch in the cafeteria".
    _r("pref", "zh", r"^(?:我)?(?:中午|午饭)(?:我)?(?:一般|通常|平时|都|基本上?)*(?:吃|在|去)(?P<value>(?:公司|单位)?食堂)(?:吃)?(?:饭|午饭)?$", LUNCH_PLACE),
    _r("pref", "en", r"^I (?:usually |normally |always |mostly )?(?:have|eat|get) (?:my )?lunch (?:at|in) the (?P<value>canteen|cafeteria|office cafeteria|work cafeteria)$", LUNCH_PLACE),
    # The user's best time in a marathon or half marathon (`builders.race_best`).
    _r("race-best", "zh", r"^(?:我)?(?:的)?(?P<race>全马|半马|全程马拉松|半程马拉松|马拉松)(?:我)?(?:的)?(?:个人)?(?:最好成绩|最佳成绩|最好的成绩|最快成绩|PB|PR|最好|最快)(?:现在|已经)?(?:是|为|：|刷新到了?|提高到了?|进步到了?|跑过|跑了|跑出过?了?|能跑到?)?(?P<time>[\d一二两三四五六七八九十:：个半小时分钟秒]{2,12})(?:左右)?了?$", race_best),
    _r("race-best", "en", r"^my (?:personal best|best|fastest|PB|PR) (?P<race>(?:half[- ])?marathon)(?: time)? (?:is|was|'s|is now) (?P<time>.+?)(?: now)?$", race_best),
    _r("race-best", "en", r"^my (?P<race>(?:half[- ])?marathon) (?:PB|PR|personal best|personal record|best time|best|record) (?:is|was|'s|is now|now is) (?P<time>.+?)(?: now)?$", race_best),
    _r("race-best", "en", r"^my (?:personal best|PB|PR|best time) (?:in|for) (?:a |the )?(?P<race>(?:half[- ])?marathon) (?:is|was|'s|is now) (?P<time>.+?)(?: now)?$", race_best),
    # How far the user runs each time: 「我每次跑步跑五公里」, 「我一般跑5公里」 (as the clause reads them: 跑五公里 is 跑步五公里;
    # the habit rule below read the second as running).
    _r("pref", "zh", r"^(?:我)?(?:现在)?(?:每次|一般|通常|平时)(?:都|能)?(?:跑步|跑)+(?P<value>\d{1,2}|[一二两三四五六七八九十]{1,3})(?:公里|km|千米)(?:左右|多)?了?$", RUNNING_DISTANCE),
    # How long the user sleeps: one count of hours in digits (「每晚睡六个小时」 holds 晚睡, which the habit rule below would
    # read as staying up late).
    _r("pref", "zh", r"^(?:我)?(?:现在|平时|一般|通常)?(?:每天|一天|每晚|每天晚上|晚上)(?:只|能|才|大概|大约|差不多|一般)*睡(?P<value>\d{1,2}|[一二两三四五六七八九十]{1,2})(?:个)?(?:多)?小时(?:左右)?(?:的觉)?了?$", SLEEP_HOURS),
    _r("pref", "en", r"^I (?:only |usually |normally |typically |now )?(?:sleep|get) (?:about |around |only |maybe )?(?P<value>\d{1,2}|four|five|six|seven|eight|nine|ten)(?: hours| hrs)(?: of sleep)?(?: a night| per night| every night| a day)?(?: now| these days)?$", SLEEP_HOURS),
    # A travel budget (in the habit rule's group: 旅游 said with 一般 is no habit).
    _r("pref", "zh", r"^(?:我)?(?:的)?(?:出去)?(?:旅游|旅行|出游|度假)(?:的)?预算(?:一般|通常|大概|大约|基本上?)*(?:是|在|控制在)?(?:大概|大约)?(?P<value>" + _ZH_AMOUNT + r")(?:块钱|块|元)?(?:左右)?$", TRAVEL_BUDGET),
    # How long the user naps, in minutes (`builders.minutes_said`): 「我每天中午午睡半小时」, 「中午我都会睡上半小时」, and
    # 「一般睡半个小时」 right after 「我有午睡的习惯」.
    _r("pref", "zh", r"^(?:我)?(?:现在)?(?:每天|平时|一般|通常)?(?:中午)?(?:我)?(?:都|一般|通常)?(?:会)?(?:午睡|睡午觉|午休)(?:一般|都)?(?:睡)?(?:上|个)?(?P<value>" + ZH_DURATION + r")(?:左右)?$", NAP_LENGTH),
    _r("pref", "zh", r"^(?:我)?(?:每天)?中午(?:我)?(?:一般|通常|都)*(?:会)?睡(?:上|个)?(?P<value>" + ZH_DURATION + r")(?:左右)?$", NAP_LENGTH),
    _r("pref", "zh", r"^(?:一般|通常|每次|每天)?(?:都)?(?:睡|午睡)(?:上|个)?(?P<value>" + ZH_DURATION + r")(?:左右)?$", NAP_LENGTH, after="habit-nap"),
    _r("pref", "zh", r"^(?:我)?(?:现在)?(?:的)?(?:午睡|午休)(?:时间)?(?:改成|缩短到|缩短成|减到|变成|调到|延长到)了?(?P<value>" + ZH_DURATION + r")了?$", NAP_LENGTH),
    _r("pref", "en", r"^I (?:usually |always |normally |try to )?(?:take|have) an? (?P<value>\d{1,3}[- ]minute|half-hour|one-hour|hour-long) (?:power )?nap(?: every day| every afternoon| after lunch| most days)?$", NAP_LENGTH),
    _r("pref", "en", r"^I (?:usually |always |normally )?nap (?:for )?(?:about )?(?P<value>half an hour|an hour|\d{1,3} minutes)(?: every day| every afternoon| after lunch| most days)?$", NAP_LENGTH),
    # How much the user can drink (`builders.drinking_limit`): 「我白酒最多只能喝二两」, 「白酒我现在一两就到头了」.
    _r("pref", "zh", r"^(?:我)?(?:的)?(?P<drink>白酒|红酒|啤酒|黄酒)(?:我)?(?:现在)?(?:最多|顶多)(?:只能)?(?:喝)?(?P<value>(?:\d{1,2}|[一二两三四五六七八九十半]{1,3}))(?P<unit>两|杯|瓶)(?:左右)?$", drinking_limit),
    _r("pref", "zh", r"^(?P<drink>白酒|红酒|啤酒|黄酒)(?:我)?(?:现在)?(?P<value>(?:\d{1,2}|[一二两三四五六七八九十半]{1,3}))(?P<unit>两|杯|瓶)就(?:到头|是(?:我的)?极限|不行|醉)了?$", drinking_limit),
    # How long an instrument has been played (`builders.instrument_years`): 「我拉二胡拉了十年了」, 「二胡我学了有十年了」.
    _r("pref", "zh", r"^(?:我)?(?:已经)?(?:拉|弹|吹|打|学|练)(?P<item>二胡|古筝|琵琶|钢琴|吉他|小提琴|大提琴|笛子|萨克斯|架子鼓)(?:已经)?(?:拉|弹|吹|打|学|练)?了?(?:有)?(?P<years>(?:\d{1,2}|[一二两三四五六七八九十]{1,3}))年(?:多)?了?$", instrument_years),
    _r("pref", "zh", r"^(?P<item>二胡|古筝|琵琶|钢琴|吉他|小提琴|大提琴|笛子|萨克斯|架子鼓)(?:我)?(?:已经)?(?:拉|弹|吹|打|学|练)了?(?:有)?(?P<years>(?:\d{1,2}|[一二两三四五六七八九十]{1,3}))年(?:多)?了?$", instrument_years),
    _r("pref", "en", r"^I(?:'ve| have) (?:been )?play(?:ed|ing) (?:the )?(?P<item>piano|guitar|violin|cello|drums|flute|saxophone|erhu|guzheng) for (?P<years>\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) years(?: now)?$", instrument_years),
    # A daily step count aimed at: the walking goal, one count in digits (the habit rule below reads 万步 as walking).
    _r("pref", "zh", r"^(?:我)?(?:给自己)?(?:定的|定了个?)?(?:每天|一天)?(?:的)?(?:步数)?(?:目标|计划)(?:是)?(?:每天|一天)?(?:要)?走(?:够|满|到)?(?P<value>[\d,一二两三四五六七八九十百千万零]+[kK]?)步$", STEPS_GOAL),
    _r("pref", "zh", r"^(?:我)?(?:给自己)?定的是(?:每天|一天)(?:要)?走(?:够|满|到)?(?P<value>[\d,一二两三四五六七八九十百千万零]+[kK]?)步$", STEPS_GOAL),
    _r("pref", "zh", r"^(?:我)?(?:每天|一天)(?:要)?走(?:够|满|到)?(?P<value>[\d,一二两三四五六七八九十百千万零]+[kK]?)步是我的(?:目标|计划)$", STEPS_GOAL),
    _r("pref", "zh", r"^(?:我)?(?:现在)?把(?:每天的?)?步数目标(?:调到|改成|提到|提高到|降到|定在|换成)了?(?P<value>[\d,一二两三四五六七八九十百千万零]+[kK]?)步?了?$", STEPS_GOAL),
    _r("pref", "zh", r".+", habit),
    _r("pref", "zh", r"(?:换成|改用|改喝|改吃|改打|改练|改玩|转用|换用)了?(?P<item>(?!" + _ZH_CHRONIC_MEDS + r"|" + _ZH_CAR_MAKES + r"|" + _CAR_MAKES + r"|白班|早班|正常班|夜班|晚班)[^，。]+)$", _switched_to_by_the_user),
    # 「我换Mac了」: a device or system switched to, said with a bare 换 (not 「我换工作了」).
    _r("pref", "zh", r"^(?:我)?(?:已经|最近|现在|刚)?换(?=[^，。]*了)(?:了)?(?P<item>[A-Za-z][\w ]{1,15}?|安卓|苹果手机|苹果电脑|华为手机|小米手机)了?$", _switched_to),
    # 「现在无辣不欢」: spicy food liked, whatever was said before.
    _r("pref", "zh", _ZH_ME + r"(?:是)?(?:个)?(?P<item>无辣不欢)(?:的人)?$", _pref),
    # What the user switched from ends where a memory names it: "I switched from VS Code to Neovim"
    # ends "Uses VS Code", 「我从苹果换成安卓了」 the phone held (its own group: the rules below read the new one).
    _r("switch", "en", r"^I(?:'ve| have)? (?:just |recently |finally )?(?:switched|moved over|changed|moved) from (?P<item>[\w' .+#-]{2,30}?) to \S", named_retirement(*_SWITCHED_FROM, one_of=True)),
    _r("switch", "zh", _ZH_ME + r"(?:已经|刚|最近)?从(?P<item>[^，。]{2,12}?)(?:换成|换到|改用|转用|换用|切换到|转到)了?\S", named_retirement(*_SWITCHED_FROM, one_of=True)),
    _r("pref", "en", r"^I(?:'ve| have)? (?:just |recently |finally )?(?:switched|moved over|changed) (?:from .+? )?to (?P<item>(?!being )(?!(?:" + _EN_CHRONIC_MEDS + r")\b)(?!(?:the )?(?:day|night|early|late|morning|evening|rotating) shifts?\b).+)$", _switched_to),
    _r("pref", "en", r"^(?:my (?:daily )?(?:step )?goal is|I aim for|I'm aiming for|I try to (?:get|walk|hit|do)) (?:to (?:walk|get|hit) )?(?P<value>[\d,]+k?) steps (?:a|per|every|each) day$", STEPS_GOAL),
    _r("pref", "en", r"^(?:I've|I have) (?:raised|lowered|bumped|changed|moved|cut|dropped) my (?:daily )?step goal (?:up |down )?to (?P<value>[\d,]+k?)(?: steps)?(?: a day)?$", STEPS_GOAL),
    # "My bowling league moved to Thursday nights": when, changed.
    _r("pref", "en", r"^my (?P<item>[a-z][\w -]{2,25}?) (?:has )?(?:moved|changed|switched|is moving) to (?P<often>(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|weekend)s?(?: (?:mornings|afternoons|evenings|nights))?)$", frequency_changed),
    # "I've bumped pickleball up to four times a week": how often, changed.
    _r("pref", "en", r"^I(?:'ve| have)? (?:bumped|upped|increased|cut|reduced|dropped|moved|scaled|stepped) (?:my )?(?P<item>[a-z][\w -]{2,20}?) (?:up |down |back )?to (?P<often>(?:\w+ times|once|twice) a (?:day|week|month)|every day|daily)$", frequency_changed),
    _r("pref", "en", r".+", habit),
    # ---- goals (a final 了 after 准备/打算 is an action about to happen: "我准备去睡觉了") ----
    # "I've changed my goal to the B2 Italian exam": the Italian goal held is the B1's.
    _r("goal", "en", r"^I(?:'ve| have)? (?:changed|switched|moved|upgraded|bumped) my (?:\w+ )?goal (?:up )?to (?P<item>(?:the |a |an )?(?:\S+ )*?(?P<named>(?-i:[A-Z])[a-z]{2,})(?: \S+)*)$", goal_changed),
    # How much the user saves a month: the savings goal, one amount in digits (`builders.amount_in_digits`).
    _r("goal", "zh", r"^(?:我)?(?:现在)?(?:打算|计划|准备|想|要|决定|会)?(?:每个?月|一个月)(?:都)?(?:要|能|会)?(?:存|攒)(?:下|够)?(?P<value>[\d,一二两三四五六七八九十百千万零]+[kK]?)(?:块钱|块|元)?(?:钱)?(?:是我(?:现在)?的存钱(?:计划|目标))?$", SAVINGS_GOAL),
    _r("goal", "zh", r"^(?:我)?(?:现在)?把每个?月的?存钱目标(?:提到|提高到|调到|改成|降到|定在)了?(?P<value>[\d,一二两三四五六七八九十百千万零]+[kK]?)(?:块钱|块|元)?了?$", SAVINGS_GOAL),
    _r("goal", "en", r"^(?:I|I'm trying to|I try to|I want to|I aim to|my goal is to) (?:save|put away|set aside|sock away) (?P<value>[$€£¥]?[\d,.]+k?)(?: dollars| bucks| euros| pounds)? (?:a|per|every|each) month$", SAVINGS_GOAL),
    # A trip taken ends the wish to make it (「想去日本旅游」), not a wish to move or work there.
    _r("goal", "en", r"^I (?:finally |just |recently )(?:went|got|made it|traveled|travelled|flew|visited)(?: (?:to|back to))? (?P<item>" + CAP + r"[\w.'-]*(?: " + CAP + r"[\w.'-]*){0,2})(?: (?:last|this) \w+| \w+ ago| at last| recently| finally)?$", _TRIP_TAKEN),
    _r("goal", "en", r"^I (?:went|traveled|travelled|flew) to (?P<item>" + CAP + r"[\w.'-]*(?: " + CAP + r"[\w.'-]*){0,2}) (?:last (?:week|month|weekend|summer|winter|spring|fall|autumn)|this (?:summer|winter|spring|fall|autumn|year|month)|\w+ (?:days|weeks) ago|recently)$", _TRIP_TAKEN),
    _r("goal", "en", r"^I(?:'m| am| just got| just came| got) (?:just )?back from (?:my trip to |a trip to )?(?P<item>" + CAP + r"[\w.'-]*(?: " + CAP + r"[\w.'-]*){0,2})\b", _TRIP_TAKEN),
    _r("goal", "zh", _ZH_ME + r"(?:终于|刚|刚刚|上个月|上周|前几天|前段时间|今年|这次|国庆|五一|春节|暑假|寒假)+(?:去了|去过了|去成了)(?:一趟|一次|趟)?(?P<item>" + ZH + r"{2,8}?)(?:了|玩|旅游|旅行|一趟)?了?$", _TRIP_TAKEN),
    _r("goal", "zh", _ZH_ME + r"(?:刚|刚刚|终于)?从(?P<item>" + ZH + r"{2,8}?)(?:旅游|旅行|玩)?回来了?$", _TRIP_TAKEN),
    # 「我一直想去日本旅游」: a trip wished for, named as a trip (「我想去超市」 is an errand).
    _r("goal", "zh", _ZH_ME + r"(?:很|特别|一直都?|好|真的|超)?想(?:要)?去(?:一?趟|一次)?(?P<item>" + ZH + r"{2,8}?)(?:旅游|旅行|玩一?趟?|玩玩|度假|自驾游?|看极光|看樱花|滑雪|潜水)$", goal),
    _r("goal", "zh", _ZH_ME + r"(?:很|特别|一直都?|好|真的|超)?想(?:要)?去(?:一?趟|一次)?(?P<item>" + _ZH_TRAVEL_PLACES + r")(?:看看|走走|转转)?$", goal),
    _r("goal", "zh", r"(?:我的)?(?:长期)?(?:目标|梦想|心愿|愿望|计划)(?:是|就是)(?P<item>[^，。]+)$", goal),
    # 「我想减掉十斤」: a weight to lose is the weight-loss goal (`keys.goal_key`).
    _r("goal", "zh", _ZH_ME + r"(?:还|再)?(?:想|想要|要|打算|准备|计划)(?:再)?(?P<item>(?:减掉?|瘦)(?:个)?[\d一二两三四五六七八九十百]+(?:斤|公斤|kg|千克))(?:左右)?$", goal),
    _r("goal", "zh", r"(?<![不没])(?:在|正在)?(?:准备|备考|冲刺)(?:考(?![研公]))?(?P<item>[^，。]+)(?<!了)$", goal),
    _r("goal", "zh", r"(?<![不没])(?:打算|计划|决定|立志)(?:在)?(?P<item>[^，。]+)(?<!了)$", goal),
    # The next step after a goal reached: 「N2考过了！下一步考N1」.
    _r("goal", "zh", r"^(?:我)?(?:下一步|接下来|下一个目标是?)(?:就|要|再|是)?(?P<item>考[^，。]+)(?<!了)$", goal),
    _r("goal", "zh", r"(?<![不没])(?:希望|想要|想)(?=在|以后|将来|未来|今年|明年|年底|[^，。]{1,8}之前)(?P<item>[^，。]+)$", goal),
    # The time first (「我今年想考驾照」): a bare 想 is a wish of the moment (「我想吃火锅」), a year is a
    # goal. 「以后要…」 and a wish about the assistant (「以后想让你…」) are how standing instructions start.
    # 「要」 needs the user as its subject: 「明年要涨房租了」, 「今年要下雪」 are news, not goals.
    _r("goal", "zh", _ZH_ME + r"(?:" + _ZH_YEAR + r"(?:希望|想要|想)|(?:以后|将来)(?:希望|想要|想))" + _ZH_OWN_GOAL, goal),
    _r("goal", "zh", r"^(?:我|本人)" + _ZH_ADV + _ZH_YEAR + r"要" + _ZH_OWN_GOAL, goal),
    # 「我想学钢琴」, 「我一直想考驾照」: to learn or to pass something is a goal even without a year;
    # not a question of the moment (「我想学一下这个怎么用」) or a quiz (「我想考考你」).
    _r("goal", "zh", _ZH_ME + r"(?:很|特别|一直都?)?想(?:要|去|辞职去?)?(?P<item>(?:学|考)(?!一下|下|考|学|会儿|点|怎么|如何|这|那)[^，。？?吗]{1,10}|读(?:MBA|EMBA|研究生|研|博士|博|硕士|在职研究生)|换(?:个|一个)?(?:城市|工作|行业|方向)[^，。？?吗]{0,6}|(?:存钱|攒钱)?买(?:车|房|房子)[^，。？?吗]{0,6})$", goal),
    _r("goal", "zh", r"(?:在|正在|开始)(?P<item>学(?!校|院|期|历|费|位|生)(?:习)?[^，。]+|减肥|控糖|戒糖|攒钱[^，。]*|存钱[^，。]*|考研|考公|考驾照|考(?:[A-Z]{2,5}|[^，。]{1,6}?(?:证|资格证?|执照)))$", goal),
    _r("goal", "en", r"^my (?:main |big |long-term |ultimate |\w+ )?(?:goal|dream|plan|aim|ambition|resolution)(?: this year| for this year| for (?:the year|\d{4}))? (?:is|for [\w ]+ is) to (?P<item>.+)$", goal),
    # A target said as an aim ("I'm learning Spanish, aiming for B2 by next summer"), or the next one after a goal
    # reached ("Passed B2! Going for C1 next").
    _r("goal", "en", r"^(?:and |so )?(?:I'm |I am )?aiming (?:for|to) (?P<item>.+)$", goal),
    _r("goal", "en", r"^(?:and |so )?(?:I'm |I am )?(?:going|aiming|heading) for (?P<item>(?:the )?(?-i:[A-Z0-9])[\w -]*?) next$", goal),
    _r("goal", "en", r"^I(?:'m| am) (?:currently )?(?:preparing|studying|training|prepping|cramming) for (?:the |a |an |my )?(?P<item>.+)$", goal),
    # A race the user is entered in: "I'm running a half marathon in May", "I signed up for a triathlon".
    _r("goal", "en", r"^I(?:'m| am) (?:running|doing|racing|competing in|signed up for|registered for) (?:a |an |the |my first )?(?P<item>(?:half[- ])?marathon|ultramarathon|ultra|triathlon|ironman|\d+k(?: race| run)?)\b.*$", goal),
    _r("goal", "en", r"^I(?:'ve| have)? (?:just |finally )?(?:signed up|registered) for (?:a |an |the |my first )?(?P<item>(?:half[- ])?marathon|ultramarathon|ultra|triathlon|ironman|\d+k(?: race| run)?)\b.*$", goal),
    _r("goal", "en", r"^I(?:'m| am) (?:saving up|saving) (?:to|for) (?P<item>.+)$", goal),
    _r("goal", "en", r"^I(?:(?:'m| am) learning|(?:'ve| have)? (?:just |recently |finally )?(?:started|began|begun) learning) (?:how )?to (?P<item>.+)$", goal),
    # "I'm studying to become a data scientist": the work aimed at.
    _r("goal", "en", r"^I(?:'m| am) (?:studying|training|working|retraining|preparing) to (?:become|be) (?:an? )?(?P<item>[\w -]{3,40})$", goal),
    # "I'm doing a master's in education part-time": the degree is the goal ("I finished my master's" reaches it).
    _r("goal", "en", r"^I(?:'m| am) (?:currently |now )?(?:doing|pursuing|working on|working towards|studying for|getting|finishing) (?:a |an |my )?(?P<item>master's|masters|PhD|MBA|doctorate|bachelor's|law degree|degree)\b.*$", goal),
    # "I'm learning the ukulele", "I've started learning ukulele", "I'm teaching myself the ukulele": one goal.
    _r("goal", "en", r"^I(?:(?:'m| am) (?:also |now |currently )?(?:learning|taking up|teaching myself)|(?:'ve| have)? (?:just |recently |finally )?(?:started|began|begun) (?:learning|to learn)) (?:the )?(?P<item>piano|guitar|violin|drums|cello|saxophone|flute|ukulele|bass guitar|swimming|coding|programming|photography|painting|drawing|calligraphy|chess|knitting|pottery)(?: now| these days| again)?$", goal),
    _r("goal", "en", r"^I(?:(?:'m| am|'ve been| have been) (?:also |now |currently )?(?:learning|studying|picking up|teaching myself)|(?:'ve| have)? (?:just |recently |finally )?(?:started|began|begun) (?:learning|studying|to learn)) (?:some )?(?P<item>" + CAP + r"[\w+#]*(?: " + CAP + r"\w*)?|how to .+)", goal),
    # Trying to conceive bears on drugs and drinks as a pregnancy does (not a goal like "trying to run").
    _r("goal", "zh", _ZH_ME + r"(?:在)?(?P<value>备孕)(?:中|了)?$", TRYING_TO_CONCEIVE),
    _r("goal", "en", r"^(?:I(?:'m| am)|we(?:'re| are)) (?:currently )?(?P<value>trying to (?:conceive|get pregnant|have a baby)|trying for a baby)\b", TRYING_TO_CONCEIVE),
    _r("goal", "en", r"^I(?:'m| am) trying to (?!" + _EN_NOT_A_GOAL + r")(?P<item>.+)$", goal),
    # "I'm thinking about learning Rust": a plan of the user's (not "thinking about dinner").
    _r("goal", "en", r"^I(?:'m| am|'ve been| have been) (?:seriously )?(?:thinking (?:about|of)|considering) (?P<item>(?:learning|moving to|switching to|changing|getting|buying|going back to|starting) .+)$", goal),
    _r("goal", "en", r"^I(?: want| plan| hope| intend| aim|'m planning| am planning|'m hoping| am hoping|'d like| would like) to (?!know|ask|see|check|talk|say|understand|make sure|be sure|watch|eat|go to bed|sleep|try|find out|learn how|read|hear|share|tell|show|brag|savor|celebrate|vent|chat|catch up|thank|congratulate|hug|apologi[sz]e|update|remind|introduce)(?P<item>.+)$", goal),
    # ---- projects ------------------------------------------------------------------------
    _r("project", "zh", r"(?:最近|目前|现在|一直)?(?:正在|在)(?:开发|做|写|搭建|搞|维护|研发|设计|打造|装修)(?P<item>[^，。]+)$", project),
    _r("project", "en", r"^(?:I(?:'m| am)|we(?:'re| are)|our team is|my team is|I've been|we've been) (?:currently |also |still |now )?(?:building|developing|writing|working on|making|creating|renovating|remodeling|maintaining|designing|migrating|rewriting|launching) (?P<item>.+)$", project),
    # ---- facts ---------------------------------------------------------------------------
    _r("residence-city", "zh", AT + r"(?P<value>" + ZH + r"{2,10}?)(?:工作和生活|生活和工作|工作生活|生活工作|工作与生活|生活与工作)", slots(RESIDENCE_ZH, WORK_CITY_ZH)),
    _r("residence-city", "en", r"^(?:I|we) (?:currently |now |still |also )?(?:live and work|work and live) (?:in|near) " + _EN_PLACE, slots(RESIDENCE_EN, WORK_CITY_EN)),
    # "Boston is where I live", "Toronto is home (now)": the home said first.
    _r("residence-city", "en", r"^" + _EN_PLACE + r" is (?:where I(?:'m| am)? (?:live|living|based)|(?:my )?home)(?: now| these days| for me)?$", RESIDENCE_EN),
    _r("residence-city", "zh", r"(?:^|我|我们家?|我家)(?:现在|目前|一直|常年|长期|也|还是|还)?(?<!不)(?:住在|住|居住在|生活在|定居在?|常住在?)(?P<value>(?![了过着的])" + ZH + r"{2,10}|[A-Z][\w .'-]{1,30}|\d+)(?:这边|那边)?$", RESIDENCE_ZH),
    _r("residence-city", "zh", r"^(?:我|我们|我家)?(?:现在|目前|一直|常年|长期|也|还)?" + AT + r"(?P<value>" + ZH + r"{2,10}?)(?:生活|定居)(?:了[^，。]{1,6}年)?$", RESIDENCE_ZH),
    # 「我在上海住了五年」: the years lived there say it is home.
    _r("residence-city", "zh", r"^(?:我|我们|我家)?(?:已经|现在|目前|一直)?" + AT + r"(?P<value>" + ZH + r"{2,10}?)住了?(?:[一二三四五六七八九十两几好多\d]+年多?|很多年|很久|好久)了?$", RESIDENCE_ZH),
    # "我家在成都": home is a residence when it names a city ("我家在三楼" does not).
    _r("residence-city", "zh", r"^(?:我家|我的家)(?:现在|目前|一直)?(?:在|住在)(?P<value>" + ZH + r"{2,10}?)(?:这边|那边)?$", RESIDENCE_HOME_ZH),
    _r("residence-city", "zh", r"搬(?:到|去|来|回)了?(?P<value>" + ZH + r"{2,10}?|[A-Z][\w .'-]{1,30})(?:了|啦|住)?$", RESIDENCE_ZH),
    # "I'm from 成都, now living in Shanghai", "…but live in Toronto now": the clause after the hometown, without its "I".
    _r("residence-city", "en", r"^(?:and |but )?(?:now |currently )?(?:living|live) in " + _EN_PLACE + r"(?: now)?$", RESIDENCE_EN),
    _r("residence-city", "en", r"^(?:I|we) (?:currently |now |still |also )?(?:live|reside) (?:in|near|outside)(?: (?:a|the) (?:suburb|outskirts|small town|village) (?:of|near|outside))? " + _EN_PLACE, RESIDENCE_EN),
    # "I've moved from Leeds to Manchester": where the user lives now.
    _r("residence-city", "en", r"^(?:I|we)(?:'ve| have)? (?:just |recently |finally )?(?:moved|relocated) (?:(?:away )?from (?:[\w.'-]+,? ){1,4}?)?(?:back )?to " + _EN_PLACE, RESIDENCE_EN),
    # "I don't have a car": how the user gets around (a car bought later replaces it).
    _r("vehicle", "en", r"^I (?:don't|do not) (?:have|own) (?P<value>a car)(?: anymore| any more)?$", Slot("fact", "vehicle")),
    _r("vehicle", "zh", r"^(?:我)?(?:现在|目前)?(?P<value>没有车|没车)(?:了)?$", Slot("fact", "vehicle")),
    # "I just moved to Seattle for a new job at Microsoft": the move's reason is the workplace.
    _r("employer", "en", r"^(?:I|we)(?:'ve| have)? (?:just |recently |finally )?(?:moved|relocated) (?:back )?to .+? for (?:a |my |the )?(?:new )?(?:job|position|role) (?:at|with) (?P<value>" + CAP + r"[\w&.'-]*(?: " + CAP + r"[\w&.'-]*){0,3})", EMPLOYER_EN),
    _r("residence-city", "en", r"^(?:I'm|I am|we're|we are) (?:currently |now )?(?:based|living|located) in " + _EN_PLACE, RESIDENCE_EN),
    _r("residence-city", "en", r"^(?:I'm|I am) in " + _EN_PLACE + r" now$", RESIDENCE_EN),
    # "I've lived in London for 5 years": still there (not "I lived in London for a year", which is over).
    _r("residence-city", "en", r"^(?:I|we)(?:'ve| have) (?:been )?(?:lived|living) in " + _EN_PLACE + r" (?:for (?:over |about |almost |nearly )?(?:\d+|a few|many|several|two|three|five|ten) (?:years|months)|since \w+)(?: now)?$", RESIDENCE_EN),
    # "I'm back in Seattle now" after a move away: home again (not "I'm back in the office").
    _r("residence-city", "en", r"^(?:I'm|I am|we're|we are) (?:now )?(?:back|living back|back home) in " + _EN_PLACE + r"(?: now| for good| again)?$", RESIDENCE_EN),
    _r("residence-city", "en", r"^I(?:'m| am)? (?:work|working) remotely from " + _EN_PLACE, RESIDENCE_EN),
    # "I've settled in Denver", 「我已经在深圳安顿下来了」, 「我们在深圳定居了」: the home city now.
    _r("residence-city", "en", r"^(?:I|we)(?:'ve| have|'re| are|'m| am)? (?:finally |now |all |just )?settled (?:down )?in " + _EN_PLACE + r"(?: now)?$", RESIDENCE_EN),
    _r("residence-city", "zh", r"^(?:我|我们|我家)?(?:已经|终于|现在|目前)?在(?P<value>" + ZH + r"{2,10}?)(?:安顿下来|安家|定居|落户|扎根)了?$", RESIDENCE_ZH),
    _r("hometown", "zh", r"(?:老家|家乡|祖籍)(?:在|是)(?P<value>[^，。]{2,12}?)(?:的|人)?$", HOMETOWN),
    # 「我是四川人」; not 「我是吃素的人」 (a kind of person, said with 的).
    # 「我是东北人」, not a trade said with 人 (「自由撰稿人」, 「主持人」: the occupation rules read those).
    _r("hometown", "zh", r"^(?:我)?是(?P<value>(?!个|一个|好|坏|普通|外地|本地|年轻|老实|打工|上班|文化|有钱|穷)(?:(?!的)" + ZH + r"){2,6}?)(?<!撰稿|经纪|负责|创始|合伙|主持|制片|代理|手艺|监护|发言|候选|联系|介绍|承包|投资|策划|管理|出品|设计|修理)人$", HOMETOWN),
    _r("hometown", "zh", r"(?:从小)?在(?P<value>" + ZH + r"{2,8}?)长大", GREW_UP),
    _r("hometown", "zh", r"(?:出生在|出生于|生在|来自)(?P<value>" + ZH + r"{2,8})", HOMETOWN),
    _r("hometown", "en", r"^(?:I(?:'m| am) |and )?(?:originally )?from " + _EN_PLACE, HOMETOWN),
    _r("hometown", "en", r"^I (?:grew up|was born and raised) in (?:a (?:small |little )?(?:town|village|city) (?:in|near|outside(?: of)?) )?" + _EN_PLACE, GREW_UP),
    # Born there is from there, as 「出生在…」 is (not "Grew up in London": nobody said so).
    _r("hometown", "en", r"^I was born in (?:a (?:small |little )?(?:town|village|city) (?:in|near|outside(?: of)?) )?" + _EN_PLACE, HOMETOWN),
    _r("hometown", "en", r"^" + _EN_PLACE + r" is (?:my hometown|where I(?:'m| am) from|where I was born)$", HOMETOWN),
    _r("hometown", "en", r"^my home ?town is " + _EN_PLACE, HOMETOWN),
    _r("nationality", "en", r"^I(?:'m| am) (?P<value>" + _DEMONYMS + r")$", Slot("fact", "nationality", {"zh": "国籍：{value}", "en": "Is {value}"}, ttl_days=LIFELONG_TTL_DAYS)),
    _r("occupation", "zh", r"^(?:我)?(?:现在|目前|也|还是|还)?(?:是|当|做|在做|在当|在干)(?:一名|一个|一位|个|名)?(?P<value>" + ZH_OR_LATIN + r"{0,8}?(?:" + _ZH_OCCUPATION + r"))了?$", OCCUPATION),
    _r("occupation", "zh", r"职业是(?P<value>[^，。]+)$", OCCUPATION),
    # 「本人纹身师一枚」: a self-introduction.
    _r("occupation", "zh", r"^(?:本人|我)(?:是)?(?P<value>" + ZH_OR_LATIN + r"{0,6}?(?:" + _ZH_OCCUPATION + r"))一枚$", OCCUPATION),
    # 「我的工作是跑外卖」, 「我是干外卖骑手这一行的」, 「现在在快递站当分拣员」.
    _r("occupation", "zh", r"^(?:我的)?工作是(?P<value>跑外卖|送外卖|送快递|跑滴滴|开滴滴|" + ZH_OR_LATIN + r"{0,8}?(?:" + _ZH_OCCUPATION + r"))$", OCCUPATION_DONE),
    _r("occupation", "zh", r"^(?:我)?(?:是)?干(?P<value>" + ZH_OR_LATIN + r"{0,8}?(?:" + _ZH_OCCUPATION + r")|跑外卖|送外卖|送快递)(?:这一?行)(?:的)?$", OCCUPATION_DONE),
    _r("occupation", "zh", r"^(?:我)?(?:现在|目前)?在[^，。]{2,8}?(?:当|做)(?:一名|一个|个|名)?(?P<value>" + ZH_OR_LATIN + r"{0,8}?(?:" + _ZH_OCCUPATION + r"))了?$", OCCUPATION),
    # 「我被提拔为经理了」, 「我升职成主管了」: the new title.
    _r("occupation", "zh", r"^(?:我)?(?:已经|刚|刚刚|去年|今年)?(?:被)?(?:提拔|升职|晋升|升)(?:为|成|到|成了|做|当|当上|做了|当了)了?(?P<value>" + ZH_OR_LATIN + r"{0,8}?(?:" + _ZH_OCCUPATION + r"))了?$", OCCUPATION),
    # 「我转行做产品经理了」: a new occupation said as a change of career.
    _r("occupation", "zh", r"^(?:我)?(?:现在|已经|去年|今年|最近)?(?:转行|改行|转|改)(?:做|当|成|去做|去当)了?(?P<value>" + ZH_OR_LATIN + r"{0,8}?(?:" + _ZH_OCCUPATION + r"))了?$", OCCUPATION),
    _r("occupation", "zh", r"^(?:我)?(?:现在|目前)?是做(?P<value>[^，。]+?)的$", OCCUPATION),
    # 「我在Google上班，做SRE」: a job named by its letters after 做 (not 「做饭」).
    _r("occupation", "zh", r"^(?:我)?(?:现在|目前|在公司|在那)?(?:做|当)(?P<value>[A-Z]{2,5}(?:工程师)?)(?:的)?$", OCCUPATION),
    _r("occupation", "zh", AT + r"[^，。\s]{2,10}?(?:做|当)(?P<value>" + ZH_OR_LATIN + r"{0,6}?(?:" + _ZH_OCCUPATION + r"))$", OCCUPATION),
    # "I'm a 28-year-old data scientist": the age is no part of the job.
    # "I quit my job as an accountant": the occupation named ends (and the employer held with it); no job is stated.
    _r("occupation", "en", r"^I(?:'ve| have)? (?:just |recently |finally )?(?:quit|left|lost|gave up|given up) (?:my )?(?:job|position|role|work|career) as an? (?P<item>(?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r"))\b", slots(named_retirement("occupation"), slot_retirement("fact", "employer", if_held=True))),
    # "I left law to become a teacher", "I quit my job to become a nurse": the occupation now.
    _r("occupation", "en", r"^I(?:'ve| have)? (?:just |recently |finally )?(?:left|quit) (?:[\w-]+ ){1,3}?to become an? (?P<value>(?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r"))\b", OCCUPATION),
    # "I became a chef", "I've just become a nurse", "I just started as a compliance analyst": the occupation now.
    _r("occupation", "en", r"^I(?:'ve| have)? (?:just |recently |finally |now |since )?(?:became|become|started as|(?:switched|moved|changed)(?: over)? to being) an? (?P<value>(?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r"))\b", OCCUPATION),
    # "I do accounting for a living": the trade, as the user names it.
    _r("occupation", "en", r"^I (?:do|work in) (?P<value>[\w -]{3,30}?) for a living$", OCCUPATION_STATED),
    # "I develop in Python for a living" is "I'm a Python developer".
    _r("occupation", "en", r"^I (?:code|program|develop|write code) in (?P<value>" + CAP + r"[\w+#.-]*) (?:for a living|professionally)$", Slot("fact", "occupation", {"zh": "职业：{value}开发", "en": "Occupation: {value} developer"})),
    _r("occupation", "en", r"^I(?:'m| am) (?:currently |now |also )?an? (?:\d+[- ]year[- ]old )?(?P<value>(?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r")(?: practitioner| assistant| technician| lead)?" + _EN_WORKPLACE_KIND + r")\b", OCCUPATION),
    # "I've been a teacher for 20 years", "I just got promoted to senior engineer".
    _r("occupation", "en", r"^I(?:'ve| have) been an? (?P<value>(?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r")) (?:for|since)\b", OCCUPATION),
    _r("occupation", "en", r"^I(?: (?:just |recently |finally )?(?:got|was|have been)|'ve been| just got) promoted to (?:an? )?(?P<value>(?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r"))\b", OCCUPATION),
    # "I work in marketing", "I moved into sales": the field, not a city (the work-city rule leaves these out).
    _r("work-field", "en", r"^I(?:'m| am)? (?:currently |now |also )?(?:(?:work|working) in|(?:just |recently )?(?:moved|went|transitioned|pivoted)(?: over)? into) (?P<value>(?-i:IT|HR|PR|QA|UX|AI|ML|R&D)|tech|finance|marketing|sales|education|healthcare|retail|software|research|consulting|real estate|insurance|law|media|advertising|hospitality|logistics|manufacturing|government|the (?:tech|finance|film|music|games?|gaming|restaurant) industry)$", WORK_FIELD),
    # A title held at a company: "I'm the CTO of a small startup", "I'm the founder of Acme".
    _r("occupation", "en", r"^I(?:'m| am) (?:currently |now |also )?the (?P<value>(?:[\w-]+ ){0,2}?(?:co-founder|cofounder|founder|director|(?-i:CTO|CEO|CFO|COO|CIO|VP)))(?: (?:of|at) .+)?$", OCCUPATION),
    _r("occupation", "en", r"\b(?:work|working|freelance|freelancing|(?:new )?(?:job|position|role))(?: (?:remotely|full-time|part-time|freelance|now|currently|mostly|from home))*(?: (?:at|for|with) (?:[A-Z][\w&.-]*)(?: [A-Z][\w&.-]*){0,2})? as an? (?P<value>(?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r"|" + _EN_PLAYER + r")" + _EN_WORKPLACE_KIND + r")\b", OCCUPATION),
    # A job no list names, said as one: "I work as a dental hygienist", "I work for the city council as a planner" (no
    # rule read them, and the last resort leaves a verb of working to the rules: `lasting._NO_HABIT_VERB_EN`).
    _r("occupation", "en", r"^I(?: currently| now| also| mostly)? work(?: full-time| part-time| remotely| freelance)?(?: (?:at|for|with)(?: [\w&.'-]+){1,4}?)? as an? (?!(?:result|team|whole|group|family|volunteer|favou?r)\b)(?P<value>(?-i:[a-z][\w-]*)(?: (?-i:[a-z][\w-]*)){0,2}?)(?= (?:for|at|in|with|on|and)\b|,|$)", OCCUPATION),
    _r("occupation", "en", r"^I(?:'m| am) (?:currently |now |also )?an? professional (?P<value>(?:[\w-]+ )?(?:" + _EN_PLAYER + r"))$", OCCUPATION),
    _r("occupation", "en", r"^my (?:job|occupation|profession) is (?P<value>.+)$", OCCUPATION),
    # "I retired last year": the occupation now (as 「我退休了」).
    _r("occupation", "en", r"^I (?:just |finally |recently |officially )?(?P<value>retired)(?: from (?:[\w-]+ ){0,2}?[\w-]+)?(?: (?:last \w+|this \w+|in \d{4}|\w+ (?:years?|months?) ago|early))?$", OCCUPATION_STATED),
    # Retired or out of work: the occupation now, and the employer held ends.
    _r("occupation", "en", r"^I(?:'m| am) (?:now |recently |happily |currently )?(?P<value>retired|unemployed|between jobs|out of work)\b", slots(OCCUPATION_STATED, slot_retirement("fact", "employer", if_held=True))),
    _r("occupation", "en", r"^I(?:'m| am) (?:now |recently |happily |semi-)?(?P<value>self-employed|a stay-at-home (?:dad|mom|mum|parent)|a full-time (?:mom|mum|dad|parent))\b", OCCUPATION_STATED),
    _r("occupation", "zh", _ZH_ME + r"(?P<value>退休了|已经退休|是(?:一名|一个)?全职(?:妈妈|爸爸|太太|主妇)|待业(?:中)?)$", OCCUPATION_STATED),
    # "I teach high school math", 「我教高中数学」 (not "I teach my son to swim").
    _r("occupation", "en", r"^I (?:currently )?teach (?!my |him |her |them |the kids |kids |children )(?P<value>[\w -]{2,40})$", OCCUPATION_STATED),
    _r("occupation", "zh", _ZH_ME + r"(?:在[^，。]{2,8})?教(?P<value>(?:小学|初中|高中|中学|大学|幼儿园)[^，。]{0,6})$", OCCUPATION_STATED),
    # "I'm Sarah, a nurse from Dublin": the occupation after the name (the name itself is a profile field).
    _r("occupation", "en", r"^I(?:'m| am) " + CAP + r"[\w'-]*, an? (?P<value>(?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r"))\b", OCCUPATION),
    _r("employer", "zh", AT + r"(?P<value>[^，。\s]{2,10}?)(?:上班|工作|任职|实习|打工)", EMPLOYER_OR_KIND_ZH),
    # 「我换工作了，现在在字节跳动」, "I changed jobs, now I'm at Stripe": the job left (if held), then where the
    # user is now, which the clause alone ("现在在机场") would not say is a workplace.
    _r("employer", "zh", r"^(?:我)?(?:最近|刚|刚刚|已经|上个月|今年)?(?:换工作|换了工作|换了(?:个|份|一份|一个)(?:新)?工作|跳槽)了?$", slot_retirement("fact", "employer", if_held=True)),
    _r("employer", "en", r"^I(?:'ve| have)? (?:just |recently |finally )?(?:changed|switched) jobs$", slot_retirement("fact", "employer", if_held=True)),
    _r("employer", "zh", r"^(?:现在|目前|已经)?(?:在|去了|到了|入职了?|跳到了?)(?P<value>(?![做当干])[^，。\s]{2,10}?)(?:了|上班|工作)?$", EMPLOYER_ZH, after="employer"),
    _r("employer", "en", r"^(?:now )?I(?:'m| am) (?:now )?(?:at|with|working (?:at|for)) (?P<value>" + CAP + r"[\w&.'-]*(?: " + CAP + r"[\w&.'-]*){0,3})(?: now)?$", EMPLOYER_EN, after="employer"),
    # The job may name its field first: 「在阿里做Java开发」, as the occupation rule reads it.
    _r("employer", "zh", AT + r"(?P<value>[^，。\s]{2,10}?)(?:做|当)" + ZH_OR_LATIN + r"{0,6}?(?:" + _ZH_OCCUPATION + r")", EMPLOYER_ZH),
    _r("work-city", "zh", AT + r"(?P<value>[^，。\s]{2,10}?)(?:上班|工作|任职|实习|打工)", WORK_CITY_ZH),
    # 「公司把我调到广州了」, 「我被调到广州了」: a transfer is the new work city.
    _r("work-city", "zh", r"^(?:公司|单位|领导)?(?:把我|我被|我)(?:调|派|外派)(?:到|去)了?(?P<value>" + ZH + r"{2,6}?)(?:工作|上班)?了$", WORK_CITY_ZH),
    _r("work-city", "zh", r"^(?:我)?(?:现在|目前|也|还)?" + AT + r"(?P<value>[^，。\s]{2,10}?)(?:做|当)(?:" + _ZH_OCCUPATION + r")", WORK_CITY_ZH),
    # 「我家在杭州，公司在上海」: where the user's company is, a known city.
    _r("work-city", "zh", r"^(?:我的?|我们)?(?:公司|单位)(?:在|位于)(?P<value>" + ZH + r"{2,10}?)$", WORK_CITY_ZH),
    _r("work-city", "en", r"^I(?:'m| am)? (?:currently |now |also )?(?:work|working)(?: as an? (?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r"))? in " + _EN_WORK_PLACE + r"(?: now)?$", WORK_CITY_EN),
    # "My company moved me to Austin", "I got transferred to Austin": where the user works now.
    _r("work-city", "en", r"^(?:my (?:company|employer|job|firm|boss) (?:just )?(?:moved|relocated|transferred|sent) me|I(?:'ve| have)? (?:just |recently )?(?:got|been|was) (?:transferred|relocated)) to " + _EN_WORK_PLACE + r"(?: office)?(?: (?:last|this) \w+)?$", WORK_CITY_EN),
    _r("work-city", "en", r"^I(?:'m| am) (?:currently |now |also )?an? (?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r") (?:in|based in) " + _EN_WORK_PLACE + r"(?: now)?$", WORK_CITY_EN),
    _r("work-team", "en", r"^I (?:currently |now )?(?:lead|manage|run|head|supervise) a team of (?P<value>\d+|[a-z]+)(?: (?:[\w-]+ )?(?:engineers|developers|people|designers|nurses|analysts|researchers|staff))?(?: now)?$", TEAM_SIZE),
    _r("work-team", "en", r"^I(?:'m| am) (?:the |a )?(?:lead|manager|head|leader) of an? (?P<value>\d+|[a-z]+)[- ](?:person|people|member)(?: [\w-]+)? team(?: now)?$", TEAM_SIZE),
    _r("work-team", "zh", r"^(?:我)?(?:现在|目前)?(?:带|管理|管|负责)(?:着)?(?:一个)?(?P<value>\d+|[一二两三四五六七八九十]{1,3})(?:个)?人的?(?:技术|开发|研发|销售)?团队(?:了)?$", TEAM_SIZE),
    _r("work-schedule", "en", r"^I (?:usually |mostly |always |often |currently |now )?work (?P<value>night shifts?|nights|the night shift|rotating shifts|shifts|weekends|early shifts|late shifts)\b", WORK_SCHEDULE),
    # "I switched to day shifts", "I'm on nights now": the new schedule replaces the old.
    _r("work-schedule", "en", r"^I(?:'ve| have)? (?:just |recently )?(?:switched|moved|changed|went back) to (?P<value>(?:the )?(?:day|night|early|late|morning|evening|rotating) shifts?)\b", WORK_SCHEDULE),
    _r("work-schedule", "en", r"^I(?:'m| am) (?:now )?(?:back )?on (?P<value>(?:the )?(?:day|night|early|late) shifts?|nights|days)(?: now| again)?$", WORK_SCHEDULE),
    _r("work-schedule", "en", r"^I (?:now )?work (?P<value>days|nights) (?:now|again)$", WORK_SCHEDULE),
    _r("work-schedule", "zh", _ZH_ME + r"(?:经常|常年|长期)?(?:上|值|倒|是|换了|换成|改上|转)(?P<value>夜班|大夜班|晚班|倒班|三班倒|两班倒)", WORK_SCHEDULE),
    # 「我换成白班了」 after nights: the day shift replaces the schedule (「我上白班」 alone is no news).
    _r("work-schedule", "zh", _ZH_ME + r"(?:换了|换成|改上|转|调到|调成|改成)(?P<value>白班|早班|正常班)了?$", WORK_SCHEDULE),
    _r("work-schedule", "en", r"^I (?:usually |normally |mostly |typically )?work (?:from )?(?P<value>\d{1,2}(?::\d\d)?\s*(?:am|pm)? ?(?:to|-|until|till) ?\d{1,2}(?::\d\d)?\s*(?:am|pm)?)(?: on weekdays| every day| most days)?$", WORK_SCHEDULE),
    _r("work-schedule", "zh", r"^(?:我|我们公司|我们)?(?:现在|一直|平时|每天)?(?:是|都是|实行|要)?(?P<value>朝九晚五|996|大小周|单休|双休)(?:制)?$", WORK_SCHEDULE),
    _r("work-location", "en", r"^I " + _EN_ADV + r"(?:work|am working|'m working)? ?(?P<value>from home|remotely|fully remote|hybrid)(?: now| these days| full-time| most days| every day| on \w+days?(?:,? (?:and )?\w+days?)*)?$", WORK_LOCATION),
    _r("work-location", "en", r"^I(?:'m| am) (?:now )?(?P<value>fully remote|remote|a remote worker)(?: now| these days)?$", WORK_LOCATION),
    _r("work-location", "en", r"^I(?:'ve| have)? (?:just |recently )?(?:started|begun|began|switched to) working (?P<value>from home|remotely)(?: full[- ]time| now)?$", WORK_LOCATION),
    # "I'm back in the office full-time now": no longer from home.
    _r("work-location", "en", r"^I(?:'m| am)? (?:now )?(?:back (?:in|at|to)|work (?:in|from)|working (?:in|from)|go (?:into|in to|to)|commute to) (?P<value>the office)(?: full[- ]time| every day| five days a week)?(?: now| again)?$", WORK_LOCATION),
    # 「我一般晚上十点以后才下班」, "I usually finish work around 6pm".
    _r("work-start", "zh", r"^(?:我)?(?:现在|一般|通常|平时|每天|基本上?|都)*(?:要)?(?P<value>(?:早上|上午)?(?:\d{1,2}|[一二三四五六七八九十两]{1,3})点(?:半)?)(?:就|要|得)?(?:上班|到公司|到单位|打卡)(?:了)?$", WORK_START),
    _r("work-start", "en", r"^I (?:usually |normally |typically |generally |always )?(?:start work|start my workday|start working|begin work|clock in|get to work) (?P<value>(?:at|around|about|by) \d{1,2}(?::\d\d)?\s*(?:am|in the morning)?)(?: every (?:work)?day| on weekdays| most days)?(?: now)?$", WORK_START),
    _r("work-start", "en", r"^my (?:work ?day|shift|work) (?:usually |normally )?(?:begins|starts) (?P<value>(?:at|around|about) \d{1,2}(?::\d\d)?\s*(?:am|in the morning)?)(?: now)?$", WORK_START),
    _r("work-end", "zh", r"^(?:我)?(?:现在|一般|通常|平时|每天|经常|基本上?|都)*(?:要)?(?:到)?(?P<value>(?:晚上|下午|傍晚)?(?:\d{1,2}|[一二三四五六七八九十两]{1,3})点(?:半|多)?(?:以后|之后|后|左右)?)(?:才|就|能|才能)?下班(?:了)?$", WORK_END),
    _r("work-end", "en", r"^I (?:usually |normally |typically |generally |often |always )?(?:finish|leave|get off|get out of|clock out of) work (?P<value>(?:at|after|around|about) \d{1,2}(?::\d\d)?\s*(?:am|pm)?)(?: every day| most days| on weekdays)?$", WORK_END),
    _r("work-location", "zh", r"^(?:我)?(?:现在|目前|一直|平时|都)?(?:是)?(?P<value>在家办公|居家办公|远程办公|在家上班|远程工作)(?:的)?$", WORK_LOCATION),
    # 「我现在回公司坐班了」, 「我不远程了」: back at the office (as "I'm back in the office").
    _r("work-location", "zh", r"^(?:我)?(?:现在|目前|已经|又|每天|天天|都)*(?P<value>回公司(?:坐班|上班)|回办公室上班|去公司(?:坐班|上班)|去办公室上班|坐班)了?$", WORK_LOCATION),
    # 「我周一和周五在家办公」: the days it holds on.
    _r("work-location", "zh", r"^(?:我)?(?:现在|目前|平时)?(?:每周)?(?P<value>(?:周|星期)[一二三四五六日天](?:(?:和|、|跟)(?:周|星期)?[一二三四五六日天])*(?:都)?(?:在家办公|居家办公|远程办公|在家上班|远程))$", WORK_LOCATION),
    _r("employer", "en", r"^I(?:'m| am)? (?:currently |now )?(?:work|working) (?:at|for) " + _EN_NAME, EMPLOYER_EN),
    # "I'm a student at MIT", 「我在清华读书」: a school, not an employer.
    _r("employer", "en", r"^I(?:'m| am) an? (?:[\w-]+ ){0,2}?student at " + _EN_NAME, SCHOOL),
    # "I'm a freshman at UCLA", "I'm in my final year at MIT": the school the user is at (not "a senior at
    # Google", a job's level).
    _r("employer", "en", r"^I(?:'m| am) (?:an? (?:freshman|sophomore|first-year|second-year|third-year|fourth-year|final-year|grad student|PhD student|undergrad)|in my (?:first|second|third|fourth|final|last) year) at " + _EN_NAME, SCHOOL),
    _r("employer", "zh", _ZH_ME + r"(?:在|大学在)(?P<value>" + ZH + r"{2,4}?)(?:读大学|上大学|念大学|读的大学|上的大学|读|上)的?$", SCHOOL_CITY_ZH),
    _r("employer", "en", r"^I " + _EN_ADV + r"(?:go to|attend|am at|'m at) (?:college|university|uni|school) in (?P<value>" + CAP + r"[\w'-]*(?: " + CAP + r"[\w'-]*)?)$", SCHOOL_CITY),
    _r("employer", "zh", AT + r"(?P<value>[^，。\s]{2,10}?)(?:读书|上学|念书|读大学)$", SCHOOL_ZH),
    # 「我在清华读博」: the school, said with the degree it is for.
    _r("employer", "zh", AT + r"(?P<value>[^，。\s]{2,10}?)(?:读研究生|读研|读博士?|读硕士)$", replace(SCHOOL_ZH, templates=None)),
    # 「我在北大读研一」, 「在浙大读大三」: the school with the year, said as the user said it.
    _r("employer", "zh", AT + r"(?P<value>[^，。\s]{2,10}?)(?:读|上)(?:研[一二三]|大[一二三四]|博[一二三四五]|高[一二三]|初[一二三])$", replace(SCHOOL, templates=None, clean=zh_employer)),
    # Admitted (「我被浙大录取了」, "I got into Stanford"), or the year of school the user is in (「我今年高三」).
    # The school passed into (the goal it reaches ends as well, in the goal rules): 「我考上浙大研究生了」.
    _r("employer", "zh", r"^(?:我)?(?:已经|终于|刚|刚刚|今年)?考上(?:了)?(?P<value>(?!研|公|编|驾照|[A-Za-z\d]|一|个|所|好|理想|了)[^，。\s]{2,12}?)(?:的?(?:研究生|硕士|博士|本科|大学))?(?:了|啦)?$", PASSED_INTO),
    # A university's offer: 「我拿到东京大学的offer了」 (a school; a company's offer is 「拿到了字节的offer」, no 大学/学院).
    _r("employer", "zh", r"^(?:我)?(?:已经|终于|刚|刚刚)?拿到(?:了)?(?P<value>[^，。\s]{2,12}?(?:大学|学院|大))的(?:offer|录取通知书?)了?$", OFFER_FROM),
    _r("employer", "zh", r"^(?:我)?(?:已经|终于|刚|刚刚)?被(?P<value>(?!公司|单位)[^，。\s]{2,12}?)(?:的[^，。]{1,8}?专业)?录取了?$", ADMITTED),
    _r("employer", "en", r"^I (?:just |finally |officially )?(?:got into|got accepted (?:to|into|at)|was accepted (?:to|into|at)|have been accepted (?:to|into|at)|'ve been accepted (?:to|into|at)) " + _EN_NAME, ADMITTED),
    # "I got into grad school!": admitted, and the goal of going (「我想读研」, goal-grad-school-exam) reached.
    _r("employer", "en", r"^I (?:just |finally |officially )?(?:got into|got accepted (?:to|into)|was accepted (?:to|into)|have been accepted (?:to|into)|'ve been accepted (?:to|into)) (?P<value>(?P<item>grad school|graduate school|med school|medical school|law school|business school))\b", slots(ADMITTED, goal_reached)),
    _r("employer", "zh", r"^(?:我)?(?:今年|现在|目前)?(?:在)?(?:读|上)?(?P<value>高[一二三]|初[一二三]|大[一二三四]|研[一二三])(?:了|的学生)?$", SCHOOL_YEAR),
    # "I'm an engineer at Google", "I work as an engineer at Google": the occupation rules take the job, this the employer.
    _r("employer", "en", r"^I(?:(?:'m| am) an?|(?:'m| am)? (?:currently |now )?(?:work|working) as an?) (?:[\w-]+ ){0,3}?(?:" + _EN_OCCUPATION + r") (?:at|for) " + _EN_NAME, EMPLOYER_EN),
    _r("employer", "en", r"^I (?:just |recently )?joined " + _EN_NAME, EMPLOYER_EN),
    # "I left Stripe, I'm at Databricks now": where the user is, right after leaving a job, is the new one
    # (said alone, "I'm at Starbucks now" is a place).
    _r("employer", "en", r"^I(?:'m| am) (?:now )?(?:at|with) " + _EN_NAME + r"(?: now)?$", EMPLOYER_EN, after=("employer", "occupation")),
    # An employer of a kind, unnamed: "I work at a bank", "I work remotely for a fintech startup".
    _r("employer", "en", r"^I(?:'m| am)? (?:currently |now )?(?:work|working) (?:remotely |full-time |part-time |from home )?(?:at|for) " + _EN_EMPLOYER_OF_A_KIND + r"\b", EMPLOYER_EN),
    # A new job: "I just started a new job at a bank", "I've started working at Google".
    _r("employer", "en", r"^I(?:'ve| have)? (?:just |recently )?(?:started|got|landed|took|accepted) (?:a |my |an |the )?(?:new )?(?:job|position|role|offer|job offer) (?:at|with|from) " + _EN_NEW_EMPLOYER + r"\b", EMPLOYER_EN),
    _r("employer", "en", r"^I(?:'ve| have)? (?:just |recently )?started (?:working|a job|an internship) (?:at|for) " + _EN_NEW_EMPLOYER + r"\b", EMPLOYER_EN),
    _r("employer", "zh", r"^(?:我)?(?:已经|刚刚?|前几天|前段时间|昨天|上周|上个?星期|上个?月|去年|今年)?(?:已经|刚刚?)?(?:辞职|离职|裸辞)了", slot_retirement("fact", "employer")),
    _r("employer", "en", r"^I (?:just |recently )?(?:got|was|have been|'ve been) (?:laid off|fired|let go)\b", slot_retirement("fact", "employer")),
    _r("employer", "zh", r"^(?:我)?(?:已经|刚|刚刚|上个月|上周|去年)?(?:被裁员?|被辞退|被开除|失业)了", slot_retirement("fact", "employer")),
    _r("employer", "zh", r"^(?:我)?(?:现在|目前|一直)?(?:在家)?待业(?:在家|中)?(?:了)?$", slot_retirement("fact", "employer", if_held=True)),
    # A new employer said as a job change: 「我跳槽到腾讯了」.
    _r("employer", "zh", r"^(?:我)?(?:已经|刚|刚刚|最近|上个月|上周|去年|今年)?(?:从[^，。\s]{2,10}?)?跳(?:槽)?(?:到|去)了?(?P<value>[^，。\s]{2,10}?)(?:了|啦)?$", EMPLOYER_ZH),
    # 「我刚入职字节」: the employer now (「下周一入职腾讯」 is a plan of the week, none yet).
    _r("employer", "zh", r"^(?:我)?(?:已经|刚|刚刚|上个月|上周|去年|今年|最近)?入职(?:了)?(?P<value>[^，。\s]{2,10}?)(?:了|啦)?$", EMPLOYER_ZH),
    # 「我已经不在字节了」: no longer at a place the user's employer or city named (`named_retirement`).
    # 「我已经停药了」, "I stopped my medication", 「医生说我可以停药了」, "I'm off my meds now": the one medication held ends
    # (with two held, which is unknown).
    _r("medication", "zh", r"^(?:(?:医生|大夫)(?:说|让|叫)(?:我)?)?(?:我)?(?:已经|现在|最近|上个月|上周)?(?:可以)?(?:停药|断药|不用(?:再)?吃药)了$", named_retirement("medication-", item="")),
    _r("medication", "en", r"^I(?:'ve| have)? (?:just |recently )?(?:stopped|quit|came off|went off) (?:taking )?my (?:medication|meds|medicine|pills)\b", named_retirement("medication-", item="")),
    _r("medication", "en", r"^(?:(?:my |the )?doctor (?:says|said|told me) )?(?:I(?:'m| am) (?:now )?off (?:all )?(?:my )?(?:meds|medications?)|I can (?:now )?stop (?:taking )?(?:my )?(?:meds|medications?))(?: now)?$", named_retirement("medication-", item="")),
    # "I've lost 10 kg", 「我已经瘦了5公斤」: the goal that names the amount is reached.
    _r("pref", "en", r"^I(?:'ve| have)? (?:finally |just |already )?(?:lost|dropped|shed) (?P<item>\d+(?:\.\d+)? ?(?:kg|kgs|kilos|kilograms|pounds|lbs))\b", named_retirement("goal-")),
    _r("pref", "zh", r"^(?:我)?(?:已经|终于|总共)?(?:瘦了|减了|减掉了|瘦到了?|减到了?)(?P<item>\d+(?:\.\d+)?(?:斤|公斤|kg))", named_retirement("goal-")),
    # A graduation now ends the school and a student's occupation held (not another occupation); one
    # from a named school or in a year past is the alma mater below, and ends nothing.
    _r("occupation", "en", r"^I(?:'ve| have)? (?:just |finally |recently |officially )?graduated(?: last \w+| this \w+| today| yesterday| recently)?$", slots(slot_retirement("fact", "school", if_held=True), named_retirement("occupation", item="student"))),
    _r("occupation", "zh", r"^(?:我)?(?:已经|终于|刚|刚刚|今年|去年)?(?:大学|研究生|博士|硕士|本科|高中)?毕业了$", slots(slot_retirement("fact", "school", if_held=True), named_retirement("occupation", item="学生"))),
    # "I don't work there anymore": the employer held ends.
    _r("employer", "en", r"^I (?:(?:don't|do not) work there (?:anymore|any more)|no longer work there)$", slot_retirement("fact", "employer", if_held=True)),
    # "I started my own company", 「我辞职创业了」: working for oneself now, the employer held ends.
    _r("occupation", "en", r"^I(?:'ve| have)? (?:just |recently |finally )?(?:started|founded|launched) (?P<value>my own (?:company|business|startup))\b", slots(OCCUPATION_STATED, slot_retirement("fact", "employer", if_held=True))),
    _r("occupation", "zh", r"^(?:我)?(?:现在|已经|去年|今年)?(?:辞职|出来)?(?:自己)?(?P<value>创业)了$", slots(OCCUPATION_STATED, slot_retirement("fact", "employer", if_held=True))),
    # "We had to rehome our cat", "I gave my dog to my sister": the pet is no longer the user's.
    _r("pet", "en", r"^(?:I|we)(?:'ve| have)? (?:had to )?(?:rehome[d]?|gave away|given away|give away) (?:my|our|the) (?:old |little )?(?P<item>cat|dog|rabbit|hamster|parrot|turtle|puppy|kitten)\b", keyed_retirement("pet")),
    _r("pet", "en", r"^(?:I|we) gave (?:my|our) (?P<item>cat|dog|rabbit|hamster|parrot|puppy|kitten) (?:away|to)\b", keyed_retirement("pet")),
    # A pet named in its death: "Rex died last week", 「豆豆去世了」 end the pet memory that names it.
    _r("pet", "en", r"^(?!(?:I|We|He|She|It|They|My|Our|His|Her|Their|You)\b)(?P<item>" + CAP + r"[\w'-]+) (?:died|passed away|passed on|was put down|was put to sleep|went missing|ran away|got lost|is missing)\b", named_retirement("pet-")),
    _r("pet", "zh", r"^(?:我家|我的)?(?P<item>(?:(?!上个月|上周|前几天|前段时间|昨天|去年|已经)[^，。我你他她它这那]){2,4}?)(?:上个月|上周|前几天|前段时间|昨天|去年|已经)?(?:去世|死|走|没|走丢|丢|跑丢|丢失|不见)了$", named_retirement("pet-")),
    _r("employer", "zh", r"^(?:我)?(?:现在|已经|早就|目前)?不在(?P<item>[^，。\s]{2,10}?)了$", named_retirement("employer", "residence-city", "work-city")),
    # "I left Boston", 「我离开字节了」, 「我从腾讯离职了」: the employer or city held that names it ends
    # ("I left Sarah" names neither and ends nothing).
    _r("employer", "en", r"^I(?:'ve| have)? (?:just |recently |finally |already )?(?:left|quit|moved away from|moved out of) (?P<item>" + CAP + r"[\w&.'-]*(?: " + CAP + r"[\w&.'-]*){0,3})(?: (?:last|this) \w+| \w+ ago| for good| behind| recently)?$", named_retirement("employer", "residence-city", "work-city")),
    _r("employer", "zh", r"^(?:我)?(?:已经|刚|刚刚|去年|今年|上个月|上周|早就)?(?:离开|搬离|搬出|离职)了?(?P<item>[^，。\s]{2,10}?)了?$", named_retirement("employer", "residence-city", "work-city")),
    _r("employer", "zh", r"^(?:我)?(?:已经|刚|刚刚|去年|今年|上个月|上周|早就)?从(?P<item>[^，。\s]{2,10}?)(?:离职|辞职|搬走|搬出来|搬出去)了$", named_retirement("employer", "residence-city", "work-city")),
    _r("employer", "en", r"^I(?:'ve| have)? (?:just |recently )?(?:quit|left) my job(?: at (?:the \w+|" + CAP + r"[\w&.'-]*(?: " + CAP + r"[\w&.'-]*)*))?(?: last \w+| \w+ ago)?$", slot_retirement("fact", "employer")),
    # A named diet ended: "I quit keto", "I'm off keto now" end the diet held that names it (`named_retirement`).
    _r("diet", "en", r"^I(?:'ve| have)? (?:just |finally )?(?:quit|stopped|gave up|given up|dropped|came off|went off|ended) (?:doing |the |my )?(?P<item>keto|paleo|low[- ]carb|vegan|vegetarian|pescatarian)(?: diet)?\b", named_retirement("diet", "diet-", one_of=True)),
    _r("diet", "en", r"^I(?:'m| am) (?:now )?off (?:the )?(?P<item>keto|paleo|low[- ]carb)(?: diet)?\b", named_retirement("diet", "diet-", one_of=True)),
    # The user's own diet, not a request about food (「以后推荐餐厅的时候优先考虑素食」, 「帮我找一家素食餐厅」),
    # nor a dish the user does not eat (「我不吃素菜」).
    _r("diet", "zh", r"^(?:(?!推荐|考虑|优先|帮我|给我|找|点|餐厅|菜谱|食谱).)*?(?<!不)(?<!不是)(?<!没)(?P<value>吃素(?!菜)|(?:纯|全)?素食(?:主义者|者)?|纯素(?:食者)?|(?<=吃)全素|(?:鱼|海鲜|蛋奶|奶蛋)素(?!菜)|吃斋|清真|生酮饮食|(?<=[吃在搞做])生酮|(?<=是)(?i:vegetarian|vegan|pescatarian))"
       # Said of the user, nothing after it but how long: not 「吃素对身体好」, 「素食者容易缺铁」, 「我觉得吃素挺好的」.
       r"(?:的人)?(?:(?:已经|有)?(?:很多|好多|好几|[一二两三四五六七八九十几\d半]+)(?:个)?(?:年|个月|月|周)(?:多)?(?:了)?)?(?:的|了|啦|呢|吧)?$", diet),
    _r("diet", "en", r"^I(?:'m| am|'ve been| have been|'ve gone| have gone| went| eat| keep| only eat| eat only)? (?:a |on (?:a |the )?|doing |fully |strictly |mostly |basically |pretty much |now )?(?P<value>vegetarian|vegan|pescatarian|pescetarian|halal|kosher|keto|gluten-free|low[- ]carb|paleo|low[- ]FODMAP|renal|diabetic diet)\b", diet),
    # A diet the line above does not name, said as a diet: "I'm following a Mediterranean diet", "I'm on the DASH diet".
    _r("diet", "en", r"^I(?:'m| am|'ve been| have been)? (?:now |currently |mostly |strictly )?(?:on|following|doing|eating) (?:a|an|the) (?P<value>(?!(?:new|strict|healthy|special|balanced|good|bad|crash|proper|normal|regular|weird|\w+ing)\b)[\w-]+(?: [\w-]+){0,2}?)(?:-style)? diet\b", named_diet),
    # A diet the user must keep (core, R-READ-6), said of the user's own eating: 「饮食要清淡」,
    # 「医生让我少吃盐」; not of a dish or a restaurant (「这家店口味很清淡」 starts otherwise).
    _r("diet", "zh", r"^(?:我|我的|本人)?" + _ZH_NOWADAYS + r"(?:饮食|吃饭|吃东西|口味|吃得|吃的)(?:上)?" + _ZH_MUST + r"(?:比较|偏|很|要)?(?P<value>清淡)", Slot("fact", "diet-light")),
    # Low salt said with a lead (我, the doctor, a must, 吃) is the user's diet unless it describes a
    # dish (「…少盐的菜」); said alone it must be the whole clause (「少盐少油」, 「低盐饮食」), not a
    # product or a dish (「低盐酱油卖完了」, 「少盐的菜更好吃」).
    _r("diet", "zh", r"^(?P<lead>(?:我|医生(?:让|要|叫)我)" + _ZH_NOWADAYS + _ZH_MUST + r"(?:吃得?)?|" + _ZH_NOWADAYS + _ZH_MUST_WORD + r"(?:吃得?)?|" + _ZH_NOWADAYS + r"吃得?)?(?P<value>少油少盐|少盐少油|少吃盐|低盐|少盐)(?(lead)(?!的)|(?:饮食)?$)", Slot("fact", "diet-low-salt")),
    _r("diet", "en", r"^I(?:'m on | am on | (?:need to |have to |must |should )?(?:eat |keep |follow |be on )?)(?:a )?(?P<value>low[- ](?:sodium|salt))\b", Slot("fact", "diet-low-salt")),
    # 「我忌口牛肉」: a food the user must keep from (忌口), core as a doctor's order is.
    _r("diet", "zh", _ZH_ME + r"(?:要|得|需要)?忌(?:口)?(?!讳)(?P<item>(?!这|那)[^，。口]{1,8}?)(?:了)?$", DOCTORS_ORDER),
    # A doctor's order about food or drink (「医生让我少吃糖」, "My doctor told me to avoid salt"): a core restriction.
    _r("diet", "zh", r"^(?:我的?)?医生(?:让|要|叫|建议|嘱咐)我(?:少吃|别吃|不要吃|不能吃|忌|戒掉?|少喝|别喝|不要喝|不能喝)(?P<item>[^，。]{1,8}?)(?:了)?$", DOCTORS_ORDER),
    _r("diet", "en", r"^(?:my doctor (?:told|wants|asked|advised|ordered) me|I(?:'m| am) (?:supposed|told|advised) |I (?:need|have) ) ?to (?:avoid|cut (?:down on|back on)|limit|eat less|watch my) (?P<value>salt|sodium)(?: intake)?\b", Slot("fact", "diet-low-salt")),
    # An activity the doctor ruled out: 「医生让我别爬山了」, "My doctor told me to stop running" (a standing rule:
    # no suggestion of it; what to eat or drink is the diet's, above).
    _r("constraint", "zh", r"^(?:我的?)?医生(?:让|要|叫|建议|嘱咐)我(?:暂时|最近|以后)?(?:别|不要|不能|少|先别)(?!吃|喝)(?P<item>[^，。]{1,8}?)(?:了)?$", standing_rule, standing=True),
    _r("constraint", "en", r"^my doctor (?:told|wants|asked|advised|ordered) me (?:not to|to stop|to quit|to avoid|to give up) (?P<item>(?:run|jog|hik|lift|climb|swim|play|cycl|bik|ski|surf|danc|driv|fly|work out|exercis)\w*(?: [\w-]+){0,3})$", standing_rule, standing=True),
    _r("diet", "en", r"^my doctor (?:told|wants|asked|advised|ordered) me to (?:avoid|cut (?:down on|back on|out)|limit|stay away from|stop (?:eating|drinking)|not (?:eat|drink)) (?P<item>[\w -]{2,30}?)(?: for now| completely| altogether)?$", DOCTORS_ORDER),
    # 「我对芒果和菠萝都过敏」: 都/也 and a degree word belong to the allergy, not to the last item.
    # The user's own allergy: 「我从小就对花生过敏」, not 「我的猫对猫粮过敏」 (the pet's).
    _r("allergy", "zh", r"^(?:其实|而且|另外|还有|但是|可是)?" + _ZH_ME + r"(?:从小|一直|天生)?(?:就)?对(?P<item>[^，。]{1,10}?)(?:都|也|全都|有点|有些|比较|很|特别|严重)?(?<!不)过敏(?!的人|的话|的患者|患者|者)", ALLERGY),
    # 「我酒精过敏」, 「我海鲜过敏」: said without 对 (not 「我是过敏体质」 or 「我不过敏」).
    # 「我吃虾会过敏」, 「我一吃虾就过敏」: what is eaten or touched is the allergen (虾, not 吃虾会).
    _r("allergy", "zh", _ZH_ME + r"(?:从小|一直|天生)?(?:就)?(?:一?(?:吃|喝|碰|用)了?)?(?P<item>(?!是|很|也|不|有|会|容易)[^，。对的我]{1,6}?)(?:就|也|都)?(?:会)?(?:也|都|有点|严重)?(?<!不)过敏(?:的)?$", ALLERGY),
    _r("allergy", "zh", r"有(?!点|些)(?P<item>" + ZH + r"{1,6}?)过敏", ALLERGY),
    # 「（不是青霉素过敏，）是头孢过敏」: which allergy it is.
    _r("allergy", "zh", _ZH_ME + r"(?:其实|应该)?是(?:对)?(?P<item>[^，。对的我]{1,6}?)过敏(?:的)?$", ALLERGY),
    # Not someone else's: "I have a toddler who's allergic to milk" (a relative clause names its own subject).
    # Nor someone named ("Lily is allergic to eggs": whose daughter, the rules cannot tell).
    # Not a named person's ("Lily is allergic…"), a pet's ("My cat is allergic to chicken"), or a relative clause's.
    _r("allergy", "en", r"^(?!(?-i:[A-Z][a-z]+)(?: (?-i:[A-Z][a-z]+))?(?:'s| is| was| has| gets| got| became)\b)(?!(?:my|our|the) (?:\w+ )?(?:cat|dog|puppy|kitten|pet|rabbit|hamster|parrot|horse)s?\b)(?!.*\b(?:who|that|which)(?:'s| is| are)\s+(?:\w+ )?allerg)(?!I was\b|I used to\b)(?:.*?)allerg(?:ic|y|ies) to (?!(?:anything|something|nothing|everything|mondays?|work|people|mornings?|school|homework|exercise|effort|drama|nonsense)\b)(?P<item>[\w -]+(?:,\s*[\w -]+)*)", ALLERGY),
    # "a peanut allergy", "peanut and shellfish allergies", "a peanut allergy and a shellfish allergy".
    _r("allergy", "en", r"^(?P<item>" + _EN_ALLERGENS + r")(?: (?:could|can|would|will|might) (?:literally |actually |seriously |probably |easily )?kill me| (?:is|are) (?:(?:really|very|extremely|so) )?(?:deadly|lethal|life-threatening|dangerous) (?:for|to) me)\b", ALLERGY),
    _r("allergy", "en", r"^I(?: have| have got|'ve got| got) (?:an? )?(?P<item>[\w-]+(?: [\w-]+)?(?:(?: allerg(?:y|ies))?,?(?: and)? (?:an? )?[\w-]+(?: [\w-]+)?)*) allerg(?:y|ies)\b", ALLERGY),
    # Medication taken for a long time (a cold's 感冒药 is not): a chronic drug by name, or any
    # 药 said with a long-term word.
    _r("medication", "zh", _ZH_ME + r"(?:在|正在|一直在|长期|常年|每天(?:都)?(?:要)?|每天按时)?(?:吃|服用|服|打|注射|用|补充?)(?P<item>" + _ZH_CHRONIC_MED_LIST + r")", MEDICATION),
    # 「医生让我补充叶酸」: a medication the doctor put the user on.
    _r("medication", "zh", r"^(?:我的?)?医生(?:让|要|叫|建议|嘱咐)我(?:每天)?(?:吃|服用|补充?|打|用)(?P<item>" + _ZH_CHRONIC_MED_LIST + r")", MEDICATION),
    _r("medication", "zh", _ZH_ME + r"(?:长期|常年|每天(?:都)?(?:要)?|一直(?:在)?)(?:吃|服用|服)(?P<item>[^，。]{1,6}药)$", MEDICATION),
    # 「我每天吃一片阿司匹林」: a drug taken every day, however many.
    _r("medication", "zh", _ZH_ME + r"(?:长期|常年|每天(?:都)?(?:要)?|一直(?:在)?)(?:吃|服用|服)(?:一|两|半)?(?:片|粒|颗)?(?P<item>阿司匹林|布洛芬|维生素[A-Z\d]*|鱼油|钙片|褪黑素|" + _ZH_CHRONIC_MEDS + r")$", MEDICATION),
    # A drug the doctor moved the user to: "My doctor switched me to insulin", 「医生让我改打胰岛素」.
    # Switched to, it ends the one held drug of its use (`builders.SWITCHED_AWAY`); put on, it is one more.
    # A daily dose, said one way (`builders.medication_dose`), and a change of it; one drug put in place of another.
    _r("medication", "zh", r"^(?:我)?(?:现在)?" + _ZH_DAILY + r"(?:都)?(?:要|得)?(?:固定)?" + _ZH_DOSE_TAKEN + _ZH_DOSE + r"(?P<item>" + _ZH_DAILY_PILLS + r")$", medication_dose),
    _r("medication", "zh", r"^(?P<item>" + _ZH_DAILY_PILLS + r")(?:我)?(?:现在)?" + _ZH_DAILY + r"(?:都)?(?:要|得)?(?:固定)?" + _ZH_DOSE_TAKEN + _ZH_DOSE + r"$", medication_dose),
    _r("medication", "zh", r"^(?P<item>" + _ZH_DAILY_PILLS + r")(?:我)?(?:现在)?(?:减到|加到|增加到|改成|调到|调整到)了?(?:" + _ZH_DAILY + r")?" + _ZH_DOSE + r"了?$", medication_dose),
    _r("medication", "zh", r"^(?:医生|大夫)?(?:把|给)我的?(?P<item>" + _ZH_DAILY_PILLS + r")(?:的剂量|的量)?(?:减到|加到|增加到|改成|调到|调整到)了?(?:" + _ZH_DAILY + r")?" + _ZH_DOSE + r"了?$", medication_dose),
    _r("medication", "zh", r"^(?:我|医生)?(?:已经|现在)?(?:让我|给我|帮我)?把(?P<from>" + _ZH_CHRONIC_MEDS + r")(?:换成|改成|换)了?(?P<item>" + _ZH_CHRONIC_MEDS + r")了?$", medication_switched),
    _r("medication", "en", r"^I(?: take|'m on| am on) " + _EN_DOSE_AMOUNT + r" (?:of )?(?P<item>" + _EN_CHRONIC_MEDS + r")" + _EN_DOSE_TIMES + r"$", medication_dose),
    _r("medication", "en", r"^I(?: take|'m on| am on) (?P<item>" + _EN_CHRONIC_MEDS + r"),? " + _EN_DOSE_AMOUNT + _EN_DOSE_TIMES + r"$", medication_dose),
    _r("medication", "en", r"^my (?:morning |evening |daily |night )?(?:med|medication|pill) is (?P<item>" + _EN_CHRONIC_MEDS + r"),? " + _EN_DOSE_AMOUNT + _EN_DOSE_TIMES + r"$", medication_dose),
    _r("medication", "en", r"^(?:" + EN_PRESCRIBER + r" )?(?:just )?(?:" + EN_DOSE_CHANGED + r") (?:my )?(?P<item>" + _EN_CHRONIC_MEDS + r")(?: dose)? (?:up |down )?to " + _EN_DOSE_AMOUNT + _EN_DOSE_TIMES + r"$", medication_dose),
    _r("medication", "en", r"^(?:my |the )?doctor (?:switched|changed|moved) me from (?P<from>" + _EN_CHRONIC_MEDS + r") to (?P<item>" + _EN_CHRONIC_MEDS + r")$", medication_switched),
    _r("medication", "en", r"^(?:my |the )?doctor (?:switched|changed|moved) me (?:from [\w ]+? )?(?:to|on|onto) (?P<item>" + _EN_CHRONIC_MEDS + r")\b", _switched_medication),
    _r("medication", "en", r"^(?:my |the )?doctor (?:put|started) me (?:on|onto) (?P<item>" + _EN_CHRONIC_MED_LIST + r")\b", MEDICATION),
    # A drug ended: "My doctor took me off metformin", "I'm off metformin now", 「医生让我停了二甲双胍」; and the
    # drug switched from ("switched me from metformin to insulin": the rule above keeps the new one).
    _r("medication-ended", "en", r"^(?:(?:my |the )?doctor (?:took|has taken|'s taken) me|I(?:'m| am| came| went|'ve come| have come)) off (?:of )?(?P<item>" + _EN_CHRONIC_MEDS + r")\b", keyed_retirement("medication")),
    _r("medication-ended", "en", r"^(?:(?:my |the )?doctor (?:switched|changed|moved) me|I(?:'ve| have)? (?:switched|moved|changed)) from (?P<item>" + _EN_CHRONIC_MEDS + r") to\b", keyed_retirement("medication")),
    _r("medication-ended", "zh", r"^(?:我|医生让我|医生叫我)?(?:已经|现在)?(?:停了|停掉了|停用了|不用再吃|不用吃|换掉了)(?P<item>" + _ZH_CHRONIC_MEDS + r")了?$", keyed_retirement("medication")),
    # The drug named first: 「（医生说血压控制得不错，）降压药停了」, 「二甲双胍已经不吃了」.
    _r("medication-ended", "zh", r"^(?:我的?)?(?P<item>" + _ZH_CHRONIC_MEDS + r")(?:已经|现在|也|可以)?(?:停了|停掉了|停用了|不吃了|不用吃了|不用再吃了)$", keyed_retirement("medication")),
    _r("medication", "en", r"^I(?:'ve| have)? (?:switched|moved|changed) (?:from [\w ]+? )?to (?P<item>" + _EN_CHRONIC_MEDS + r")\b", _switched_medication),
    _r("medication", "zh", r"^(?:我|医生)?(?:已经|现在)?(?:让我|给我)?(?:改|换成|换)(?:吃|用|打|成)?(?P<item>" + _ZH_CHRONIC_MEDS + r")", _switched_medication),
    _r("medication", "en", r"^I(?: " + _EN_ADV + r"(?:take|use|inject|need)|(?:'m| am) (?:\w+ )?(?:taking|on)) (?:daily |my )?(?P<item>" + _EN_CHRONIC_MED_LIST + r")\b", MEDICATION),
    _r("health", "zh", r"(?<!没)(?<!没有)(?<!不)(?:有|患有|得了|确诊了?)(?:轻度|中度|重度|轻微的?|妊娠期?|慢性|严重的?)?(?P<item>高血压|糖尿病前期|糖尿病|哮喘|乳糖不耐受?|痛风|偏头痛|抑郁症?|焦虑症|过敏性鼻炎|癫痫|高血脂|心脏病|冠心病|多动症|肾病|湿疹|慢性荨麻疹|荨麻疹|腱鞘炎|银屑病|牛皮癣|低血糖|腰椎间盘突出|腰间盘突出|贫血|" + _ZH_CONDITIONS + r")(?!的人|的话|的患者|患者|的朋友)", HEALTH),
    # Said without 有: 「我乳糖不耐受」, 「我是糖尿病患者」 (a safety fact, R-READ-6); the condition ends
    # the clause, so 「我是糖尿病医生」 is an occupation, not the user's diabetes.
    _r("health", "zh", _ZH_ME + r"(?:是|有点|有些)?(?P<item>乳糖不耐受?)(?:症)?$", HEALTH),
    _r("health", "zh", _ZH_ME + r"(?:对)?(?P<item>麸质不耐受?)(?:症)?$", HEALTH),
    # "I have a gluten intolerance", "I have lactose intolerance".
    _r("health", "en", r"^I(?: have|'ve got| was diagnosed with|'ve been diagnosed with) (?:an? )?(?P<item>(?:gluten|lactose|wheat|dairy|fructose) (?:intolerance|sensitivity))\b", HEALTH),
    # Not 「也就是…」 ("that is…", naming what was said before it).
    _r("health", "zh", r"(?!(?:也)?就是)" + _ZH_ME + r"是(?:一[个名])?(?:轻型|重型|轻度|中度|重度)?(?P<item>高血压|糖尿病前期|糖尿病|哮喘|痛风|抑郁症|" + _ZH_CONDITIONS + r")(?:病人|患者)?$", HEALTH),
    # 「玫瑰痤疮患者，求推荐…」: the patient said bare, as a self-introduction.
    _r("health", "zh", r"^(?:本人)?(?P<item>高血压|糖尿病|哮喘|痛风|抑郁症|" + _ZH_CONDITIONS + r")患者(?:一枚|一个)?$", HEALTH),
    # A condition said as the organ or the reading: 「我心脏不好」, 「我血脂高」, 「我血压高」.
    _r("health", "zh", _ZH_ME + r"(?:有点|有些|一直)?(?P<item>痛风|哮喘|贫血|低血糖|高血压|糖尿病|腰椎间盘突出|腰间盘突出|椎间盘突出)$", HEALTH),
    _r("health", "zh", _ZH_ME + r"是(?:一[个名])?(?P<item>乙肝|丙肝)(?:病毒)?携带者$", HEALTH),
    _r("health", "zh", _ZH_ME + r"(?:一直|有点|有些)?(?P<item>心脏不好|肾不好|腰不好|膝盖不好|胃不好|肠胃不好|脾胃不好|肝不好|颈椎不好|血脂(?:有点|偏|比较)?高|血压(?:有点|偏|比较)?高|血糖(?:有点|偏|比较)?高|胆固醇(?:有点|偏|比较)?高)$", HEALTH),
    _r("health", "zh", _ZH_ME + r"(?:一直|长期|经常)?(?:有)?(?P<item>失眠)(?:很|比较|挺|特别)?(?:严重|厉害)?$", HEALTH),
    # "I get hay fever every spring" (not "I get migraines from red wine": a trigger is a sensitivity).
    _r("health", "en", r"^I (?:usually |often |always |sometimes )?get (?P<item>hay fever|allergic rhinitis|migraines|acid reflux|heartburn|eczema|gout|panic attacks|insomnia)(?: (?:every|each|in the) \w+| in (?:the )?(?:spring|summer|fall|autumn|winter))?$", HEALTH),
    _r("health", "en", r"^I(?: (?:have|suffer from|deal with|struggle with|was diagnosed with|live with|(?:just )?got diagnosed with|have been diagnosed with)|'ve got|'ve (?:just )?been diagnosed with) (?:type \d |gestational |(?:chronic|mild|severe|moderate|serious) )?(?P<item>prediabetes|pre-diabetes|diabetes|asthma|hypertension|high blood pressure|c(?:o)?eliac(?: disease)?|migraines|ADHD|epilepsy|gout|high cholesterol|(?:a )?heart condition|heart disease|depression|(?:an )?anxiety(?: disorder)?(?= *(?:[.!,;]|$| and | but | so ))|IBS|kidney disease|kidney problems|CKD|eczema|psoriasis|(?:a )?bad back|bad knees|(?:a )?bad knee|insomnia|(?:a )?bad stomach|stomach problems|dyslexia|arthritis|autism|" + _EN_CONDITIONS + r")\b", HEALTH),
    # Hearing lost in one ear or both, said one way (before "I'm hard of hearing", which the rule below keeps as said).
    _r("health", "zh", r"^(?:我)?(?:的)?(?P<value>左|右|两|双)(?:边)?(?:耳|耳朵)(?:的)?(?:听力|听东西)(?:一直|有点|比较|很)*(?:不太好|不好|差|不太清楚|不清楚|有问题|下降了?)$", HEARING),
    _r("health", "en", r"^I(?:'m| am) (?:a bit |a little |partially |completely |totally )?(?:hard of hearing|deaf) in (?:my )?(?P<value>left|right|both)(?: ear| ears)?$", HEARING),
    _r("health", "en", r"^(?:the )?hearing in my (?P<value>left|right) ear (?:is|'s) (?:bad|poor|weak|not great|not good)$", HEARING),
    _r("health", "en", r"^I can(?:'t|not) hear (?:well |much |very well )?(?:out of|in|with) my (?P<value>left|right) ear$", HEARING),
    # "Every spring my hay fever kicks in": a condition that comes back is had.
    _r("health", "en", r"^(?:(?:every|each) \w+,? |in (?:the )?\w+,? )?my (?P<item>hay fever|allergic rhinitis|asthma|migraines|acid reflux|GERD|eczema|psoriasis|gout|arthritis|IBS|tinnitus|insomnia|gastritis|dry eyes) (?:kicks in|acts up|flares up|comes back)\b", HEALTH),
    _r("health", "en", r"^I(?:'m| am) (?:an? )?(?:type [12] )?(?P<item>lactose intolerant|gluten[- ]intolerant|intolerant (?:to|of) (?:gluten|lactose)|diabetic|asthmatic|colou?r[- ]?blind|deaf|blind(?! to\b)|hard of hearing|c(?:o)?eliac|epileptic|prediabetic|pre-diabetic|bipolar|immunocompromised|hypoglycemic|anemic|anaemic)\b", HEALTH),
    # "I had a kidney transplant": a condition for life (core: every drug and food suggested bears on it).
    _r("health", "en", r"^I(?: (?:previously|once|already|recently|actually))?(?: had|'ve had| have had| got) an? (?P<item>(?:kidney|liver|heart|lung) transplant)\b", HEALTH),
    _r("health", "zh", _ZH_ME + r"(?:以前|之前|去年|前年|前几年|几年前|曾经)*(?:做过|做了|换过|换了|装过|放过)(?P<item>肾移植|肝移植|心脏移植|肺移植|心脏支架|支架|心脏搭桥|搭桥)(?:手术)?", HEALTH),
    # A medical history: "I had a heart attack last year", "I'm a cancer survivor", 「我以前得过心梗」 (core, as a
    # condition held is: a workout, a food or a drug suggested bears on it).
    _r("health", "en", r"^I(?: (?:previously|once|already|recently|actually))?(?: had|'ve had| have had| survived| suffered) (?:a |an )?(?:mild |minor |major |small |massive )?(?P<item>heart attack|stroke|mini-stroke|TIA|(?:\w+ )?cancer|heart bypass|bypass surgery)\b", HEALTH),
    _r("health", "en", r"^I(?:'m| am) an? (?P<item>(?:\w+ )?cancer|stroke|heart attack) survivor\b", HEALTH),
    _r("health", "zh", _ZH_ME + r"(?:以前|之前|去年|前年|前几年|几年前|曾经)*(?:得过|患过|有过|发过|犯过|得了)(?:一次|两次)?(?P<item>心梗|心肌梗塞|心肌梗死|中风|脑中风|脑梗|脑卒中|" + ZH + r"{0,3}癌)", HEALTH),
    # Recovering from an operation or an injury: "I'm recovering from knee surgery", 「我刚做完手术」 (a workout suggested
    # must wait; 「我膝盖好了」 ends it).
    _r("health", "en", r"^I(?:'m| am) (?:still )?recovering from (?:a |an |my )?(?:recent )?(?P<item>[\w -]{0,20}?(?:surgery|operation|stroke|heart attack))\b", HEALTH),
    _r("health", "zh", _ZH_ME + r"(?:刚|刚刚|最近|上个月|上周|前几天|前段时间)(?:做完|做了|动了|动完)(?:一个|个)?(?P<item>" + ZH + r"{0,4}手术)", HEALTH),
    # 「我是过敏体质」: prone to allergies (core: a drug or a food suggested must be weighed).
    _r("health", "zh", _ZH_ME + r"(?:是|属于)?(?P<item>过敏体质)", HEALTH),
    _r("health", "en", r"^I(?:'m| am) (?P<item>allergy[- ]prone|prone to allergies)\b", HEALTH),
    _r("health", "zh", _ZH_ME + r"(?:是|有点)?(?P<item>色弱|色盲|红绿色盲)$", HEALTH),
    # A condition that comes back, said by how often: "I get migraines a lot", 「我经常偏头痛」.
    _r("health", "en", r"^I (?:often |frequently |regularly |still )?get (?P<item>migraines|cluster headaches|seizures|panic attacks)(?: a lot| often| regularly| all the time| every \w+)?$", HEALTH),
    _r("health", "zh", _ZH_ME + r"(?:经常|常常|老是|总是|时不时|长期)(?:会)?(?P<item>偏头痛|失眠)$", HEALTH),
    # Sobriety kept: no drink may be suggested (core). "I'm sober" alone can mean tonight.
    _r("health", "en", r"^(?P<value>I(?:'m| am) (?:a )?(?:recovering alcoholic|recovering addict|in recovery|sober)|I(?:'ve| have) been (?:sober|clean) (?:for|since))\b", SOBRIETY_STATED),
    # "I get anaphylaxis from bee stings", "I'm anaphylactic to shellfish": an allergy at its worst.
    _r("allergy", "en", r"^I (?:can |could |would )?(?:get|go into|have had) (?:an? )?(?:anaphylaxis|anaphylactic (?:shock|reactions?)) (?:from|to|when I (?:eat|have|touch)) (?P<item>[\w -]{2,30}?)$", ALLERGY),
    _r("allergy", "en", r"^I(?:'m| am) (?:severely |deathly )?anaphylactic to (?P<item>[\w -]{2,30}?)$", ALLERGY),
    # "I'm intolerant to fructose", "I have a fructose intolerance": a sensitivity of the body's (lactose and gluten are
    # conditions of their own, above).
    _r("sensitivity", "en", r"^I(?:'m| am) (?:very |quite |a bit )?intolerant (?:to|of) (?P<item>(?!gluten|lactose)[\w -]{2,30}?)$", SENSITIVITY),
    # An epinephrine pen or an inhaler carried: a severe allergy or asthma behind it (core).
    _r("medication", "en", r"^I " + _EN_ADV + r"(?:carry|have|keep|need) (?:an? |my )?(?P<item>EpiPen|epi-pen|epinephrine (?:pen|auto-injector)|inhaler)s?\b", MEDICATION),
    _r("medication", "zh", _ZH_ME + r"(?:随身)?(?:带着?|备着?)(?P<item>肾上腺素笔|EpiPen|哮喘喷雾|吸入器)", MEDICATION),
    # A mobility or hearing aid (core: it bears on every place and plan suggested), not a tool one likes.
    _r("health", "zh", _ZH_ME + r"(?:平时|一直|现在|出门)?(?:要)?(?:坐|用|戴|拄着?)(?P<item>轮椅|助听器|拐杖)", HEALTH),
    _r("health", "en", r"^I(?: " + _EN_ADV + r"(?:use|need|rely on)|(?:'m| am) in) (?:an? )?(?P<item>wheelchair|hearing aids?|cane|walker|crutches)\b(?! umbrella)", HEALTH),
    _r("health", "en", r"^I " + _EN_ADV + r"wear (?:an? )?(?P<item>hearing aids?)\b", HEALTH),
    _r("health", "en", r"^I(?: have|'ve got| had| got| wear| use)(?: had)? (?:an? )?(?P<item>" + _EN_IMPLANTS + r")\b(?! (?:company|salesman|factory))", HEALTH),
    _r("health", "zh", _ZH_ME + r"(?:装了|装有|装着|戴着|有|放了)(?:个|一个)?(?P<item>" + _ZH_IMPLANTS + r")", HEALTH),
    # A condition got over: 「我的胃病好了」, 「哮喘已经治好了」, 「我的花生过敏已经好了」, "My back pain is gone", "I've recovered
    # from anemia" end the one health fact or allergy that names it (「胃不好」, 「对花生过敏」); not 「病好了」 or a cold.
    _r("health", "zh", r"^(?:我的?)?(?P<item>" + _ZH_BODY_PARTS + r"|(?!病|感冒|身体|伤|的|我|现在|已经|最近|早就|基本|终于|完全|后来|目前)" + ZH + r"{2,6}?)(?:病|伤|疼|痛|的毛病|的问题)?(?:已经|终于|也|都|基本|完全|早就)*(?:好了|治好了|痊愈了|康复了|治愈了|根治了|没事了)$", named_retirement("health-", "allergy-")),
    _r("health", "en", r"^my (?P<item>(?!cold|flu|illness)[a-z][\w' -]{2,30}?) (?:is|are|has|have) (?:completely |finally |now |totally |fully |all )*(?:gone|cured|healed|resolved|cleared up|gone away|in remission)(?: now| for good)?$", named_retirement("health-")),
    _r("health", "en", r"^I(?:'ve| have)? (?:fully |completely |finally )?(?:recovered from|beat|beaten|got over|gotten over|overcome|overcame) (?:my |the )?(?P<item>(?!a cold|the flu|it\b|that\b)[\w' -]{3,30}?)(?: now| at last| for good)?$", named_retirement("health-")),
    # A reading back to normal: 「我血压已经正常了」 rewrites 「有高血压」 (it may be the medication's doing).
    _r("health", "zh", r"^(?:我的?)?(?P<item>血压|血糖|血脂|胆固醇|尿酸|甲功)(?:现在|已经|终于|也|都|基本)*(?:正常|恢复正常|降下来|控制住|稳定|达标)了$", named_restatement("health-")),
    _r("health", "en", r"^my (?P<item>blood pressure|blood sugar|cholesterol|uric acid)(?: levels?)? (?:is|are|has|have) (?:now |finally |been |back |to |come |down )*(?:normal|under control|stable|fine)(?: now| again)?$", named_restatement("health-")),
    # A birth or a loss ends a pregnancy (core memories never expire: only this retires it).
    _r("health", "zh", r"^(?:我)?(?:已经|刚|刚刚)?(?:生了|生完(?:孩子|宝宝|娃)?了|生(?:了)?(?:孩子|宝宝|娃)了|流产了)$|^(?:我的?|我们的?|我家)?(?:宝宝|孩子|娃|小宝|二宝)(?:已经|刚|刚刚|终于)?出生了$", slot_retirement("fact", "health-pregnancy"), family=True),
    _r("health", "en", r"^I (?:just |recently |finally )?(?:had (?:the|my|our) baby|gave birth|lost (?:the|my|our) baby|had a miscarriage)\b", slot_retirement("fact", "health-pregnancy")),
    _r("health", "en", r"^(?:we|I) (?:just |recently |finally )?had our (?:first|second|third|fourth|fifth|\d+(?:st|nd|rd|th)) (?:child|baby|kid|son|daughter)\b(?!.*\b(?:in (?:19|20)\d\d|years? ago)\b)", slot_retirement("fact", "health-pregnancy", if_held=True)),
    # "The baby was born last week", "Our daughter was just born": a birth now, not "My son was born in 2019".
    _r("health", "en", r"^(?:the|my|our) (?:new )?(?:baby|babies|twins|baby (?:boy|girl)|little one) (?:was|were|is|are|has been) (?:just |finally |safely )?(?:born|here)\b|^(?:the|my|our) (?:baby|twins) (?:arrived|came)\b|^(?:the|my|our) (?:son|daughter|boy|girl) (?:was|were) (?:just born|born (?:today|yesterday|last night|this morning|last week|on \w+day))\b", slot_retirement("fact", "health-pregnancy"), family=True),
    # A pregnancy matters to every food, drug and exercise suggestion.
    _r("health", "zh", _ZH_ME + r"(?P<value>怀孕|怀孕了|在孕期|是(?:一[个名])?孕妇|怀了?(?:宝宝|孩子|二胎|二宝|三胎|双胞胎))(?:[一二三四五六七八九十\d]+个?(?:月|周))?了?$", _PREGNANT),
    _r("health", "en", r"^I(?:'m| am) (?:currently |now )?(?:(?:\d+|a few|\w+) (?:weeks?|months?) )?(?P<value>pregnant|expecting (?:a baby|twins))\b", _PREGNANT),
    # Breastfeeding bears on every drug and drink suggested, as a pregnancy does; weaning ends it.
    _r("health", "zh", r"^(?:我|宝宝|孩子|娃)?(?:已经|刚|刚刚|终于)?(?:断奶|断母乳)了$", slot_retirement("fact", "health-breastfeeding"), family=True),
    _r("health", "en", r"^I(?:'ve| have)? (?:just |finally )?(?:stopped|finished|quit) (?:breastfeeding|breast-feeding)\b", slot_retirement("fact", "health-breastfeeding")),
    # "I quit nursing" is a nurse's job or breastfeeding: it ends whichever is held.
    _r("health", "en", r"^I(?:'ve| have)? (?:just |finally )?(?:stopped|finished|quit|left) nursing\b", slots(slot_retirement("fact", "health-breastfeeding", if_held=True), named_retirement("occupation", item="nurse"))),
    _r("health", "zh", _ZH_ME + r"(?:在|正在|还在)?(?P<value>哺乳期|母乳喂养|喂母乳|喂奶)(?:中|阶段)?(?:呢|了)?$", BREASTFEEDING),
    _r("health", "en", r"^I(?:'m| am) (?:currently |still |now )?(?P<value>breastfeeding|breast-feeding)\b", BREASTFEEDING),
    _r("trait", "zh", r"^(?:我)?是(?:个|一个)?(?P<item>左撇子|急性子|慢性子|路痴|社恐)", TRAIT),
    _r("trait", "en", r"^I(?:'m| am) (?P<item>left-handed|right-handed|ambidextrous)\b", TRAIT),
    # 「我特别怕冷」, 「我晕车」, "I'm afraid of heights", "I get carsick": what the assistant plans around.
    _r("trait", "zh", _ZH_ME + r"(?:有点|有些|容易)?(?P<item>怕冷|怕热|晕车|晕船|恐高|(?:害)?怕狗|怕坐飞机|恐飞|怕打针|晕针)$", TRAIT),
    _r("trait", "zh", _ZH_ME + r"(?:是|有点|有些)?(?:高度|深度)?(?P<item>近视|远视|老花)(?:眼)?(?:有)?(?:(?:\d{2,4}|[一二三四五六七八九两][百千](?:[一二三四五六七八九]十?)?)度)?(?:了)?$", TRAIT),
    # A phobia: 「我有密集恐惧症」, "I'm claustrophobic".
    _r("trait", "zh", _ZH_ME + r"(?:有|是)?(?:点|一点)?(?P<item>(?:幽闭|密集|社交|深海|飞行)恐惧症?)$", TRAIT),
    _r("trait", "en", r"^I(?:'m| am) (?:a bit |very |really |quite |pretty )?(?P<item>claustrophobic|agoraphobic)$", TRAIT),
    # "I'm a light sleeper", "I sleep lightly", 「我睡眠浅」, 「我觉浅，容易醒」: one trait, however said.
    _r("trait", "en", r"^I(?:'m| am) (?:a |an )?(?:very |really |extremely |super )?(?P<item>light sleeper)$", TRAIT),
    _r("trait", "en", r"^I (?:usually |always |tend to )?(?P<value>sleep) (?:very |really )?lightly$", LIGHT_SLEEPER),
    _r("trait", "zh", _ZH_ME + r"(?:睡眠|睡得|睡觉|觉)(?:很|比较|特别|有点)?(?P<value>浅)(?:，?容易醒)?$", LIGHT_SLEEPER),
    _r("trait", "zh", _ZH_ME + r"(?:要|得|需要)?戴(?P<item>隐形眼镜|眼镜)$", TRAIT),
    _r("trait", "zh", _ZH_ME + r"(?:性格)?(?:比较|很|挺|有点|偏|特别)?(?P<item>内向|外向)(?:的人)?$", TRAIT),
    # What the user's body reacts to, short of an allergy: a restriction every food and drink
    # suggestion keeps (core); 「对批评很敏感」 is no such item.
    _r("sensitivity", "zh", r"对(?P<item>咖啡因|酒精|乳糖|麸质|味精|花粉|尘螨|辣)(?:很|比较|特别|有点|非常|有些)?敏感", SENSITIVITY),
    _r("sensitivity", "en", r"^I(?:'m| am) (?:very |really |quite |a bit |a little |super |extremely )?sensitive to (?P<item>caffeine|alcohol|lactose|gluten|MSG|pollen|dust|spicy food)\b", SENSITIVITY),
    # What a food or drink does to the user's body: "Coffee makes me jittery", 「我一喝牛奶就拉肚子」. A closed
    # list of substances, so "This song makes me sick" or 「他让我头疼」 are none.
    _r("sensitivity", "en", r"^(?P<item>" + _EN_SUBSTANCES + r")(?: always| usually| really)? (?:makes|gives) me (?:feel )?(?:jittery|sick|nauseous|dizzy|anxious|shaky|a headache|headaches|a migraine|migraines|heartburn|a stomachache|stomachaches|bloated|palpitations|insomnia)\b", SENSITIVITY),
    _r("sensitivity", "en", r"^(?P<item>" + _EN_SUBSTANCES + r") (?:always |usually |really )?(?:upsets|hurts|bothers|messes with|ruins) my (?:stomach|gut|sleep)\b", SENSITIVITY),
    # A drug the user must not take (「我对青霉素过敏，不能用头孢」, "I can't take aspirin"): core, as an allergy is.
    _r("sensitivity", "en", r"^I (?:can't|cannot|can not|must not|mustn't|shouldn't) (?:take|have|be given) (?P<item>" + _EN_DRUGS + r")\b", SENSITIVITY),
    # 「我吃海鲜会起疹子」: a rash or swelling after a food is an allergy's reaction (core), not a taste.
    _r("sensitivity", "zh", r"^(?:我)?(?:一)?(?:吃|喝|碰)(?:了)?(?P<item>[^，。就会我]{1,6}?)(?:我)?(?:的)?(?P<part>嘴巴|嘴唇|嘴|喉咙|嗓子|脸|眼睛|皮肤)?(?:就|会|都会|就会|总是|总会)(?:会)?(?:浑身|全身)?(?:起疹子|起红疹|长疹子|出疹子|起荨麻疹|嘴巴肿|嘴唇肿|喉咙肿|呼吸困难|(?(part)(?:肿|发肿|红肿|痒|发痒)|(?!)))", ALLERGY),
    # "Sesame makes my throat swell up", "Shrimp gives me hives": swelling or hives after a food is an allergy's.
    _r("sensitivity", "en", r"^(?!(?:stress|anxiety|work|exams?|heat|cold|the sun|sunlight|exercise|it|this|that|he|she|they|my|your|his|her|our|their|people|someone|everything|thinking about)\b)(?P<item>[\w -]{2,30}?) (?:always |usually |really )?(?:makes|make|gives|give) (?:me (?:hives|a rash|break out|swell up)|my (?:throat|lips|mouth|tongue|face|eyes) (?:swell(?: up)?|close up|itch|itchy))\b", ALLERGY),
    # "I can't have shellfish or peanuts": foods an allergy is most often to, kept from (as "I can't eat …" is).
    _r("sensitivity", "en", r"^I (?:can't|cannot|can not) have (?P<item>" + _EN_ALLERGENS + r"(?:(?:,|,? or|,? and) " + _EN_ALLERGENS + r")*)$", _pref),
    # "I can't have caffeine after 2pm": a restriction of the body's, whatever the hour (to eat or drink it is a dislike).
    _r("sensitivity", "en", r"^I (?:can't|cannot|can not) (?:have|tolerate|handle|digest) (?P<item>" + _EN_SUBSTANCES + r")\b", SENSITIVITY),
    _r("sensitivity", "en", r"^I (?:always |usually |often )?get (?:a migraine|migraines|a headache|headaches|heartburn|sick|a rash|hives|a stomachache|stomachaches|palpitations|jittery) (?:from|after|when I (?:eat|drink|have)) (?P<item>" + _EN_SUBSTANCES + r")\b", SENSITIVITY),
    _r("sensitivity", "zh", r"^(?:我)?(?:一)?(?:喝|吃)(?P<item>" + _ZH_SUBSTANCES + r")(?:我)?(?:就|会|都会|就会|总是|总会)(?:会)?(?:心慌|心悸|拉肚子|胃疼|胃痛|胃不舒服|头疼|头痛|偏头痛|失眠|睡不着|恶心|胀气|起疹子)", SENSITIVITY),
    _r("sensitivity", "zh", r"^(?P<item>" + _ZH_SUBSTANCES + r")(?:会|总会)?(?:让|使)我(?:心慌|心悸|拉肚子|胃疼|胃痛|头疼|头痛|偏头痛|失眠|睡不着|恶心)", SENSITIVITY),
    _r("trait", "en", r"^I(?:'m| am) (?:really |very |quite |a bit |a little |kind of )?(?P<item>afraid of heights|scared of heights|carsick|seasick|sensitive to (?:cold|heat)|afraid of dogs|scared of dogs|(?:afraid|scared|terrified) of (?:flying|needles|heights|dogs))\b", TRAIT),
    _r("trait", "en", r"^I(?: have|'ve got| have got) an? (?:real |big |huge |terrible )?(?P<item>fear of (?:heights|flying|needles|dogs))\b", TRAIT),
    # Eyesight and glasses, personality: what a suggestion of a sport, a seat or an evening plans around.
    _r("trait", "en", r"^I(?:'m| am) (?:very |really |quite |a bit |a little |slightly |pretty )?(?P<item>near-?sighted|short-?sighted|far-?sighted|long-?sighted)\b", TRAIT),
    _r("trait", "en", r"^I " + _EN_ADV + r"(?:wear|need) (?P<item>glasses|contacts|contact lenses)(?: (?:every day|all the time|now))?$", TRAIT),
    # "I stopped wearing contacts and went back to glasses" (the clause after it given its "I").
    _r("trait", "en", r"^I(?:'ve| have)? (?:stopped|quit|gave up) wearing (?P<item>glasses|contacts|contact lenses)(?: for good| now)?$", keyed_retirement("trait")),
    _r("trait", "en", r"^I (?:went back to|switched to|now wear) (?P<item>glasses|contacts|contact lenses)$", TRAIT),
    _r("trait", "en", r"^I(?:'m| am) (?:(?:much |definitely |very much )?more of )?an? (?:bit of an? )?(?P<item>introvert|extrovert)$", TRAIT),
    _r("trait", "en", r"^I(?:'m| am) (?:very |really |quite |pretty |fairly |kind of |a bit )?(?P<item>introverted|extroverted)$", TRAIT),
    _r("trait", "en", r"^I (?:always |usually |easily )?get (?P<item>carsick|seasick|motion sickness)\b", TRAIT),
    # What the user cannot do, which a trip or a weekend plan must not assume: "I can't swim", 「我不会开车」.
    _r("trait", "en", r"^I (?:still |really )?(?P<item>can't swim|cannot swim|can't drive|cannot drive|don't drive|do not drive)(?: at all)?$", TRAIT),
    _r("trait", "zh", _ZH_ME + r"(?:完全|根本|一直|还)?(?P<item>不会游泳|不会开车)$", TRAIT),
    # Learning it ends it: "I can swim now", 「我学会游泳了」; a job found ends the job hunt (「我明年想换工作」).
    _r("goal", "en", r"^I(?:'ve| have)? (?:finally |just )?(?:found|got|landed) (?:a |my )?(?:new )?job\b", slot_retirement("goal", "goal-job-change", if_held=True)),
    # A job hunt under way (「我在找工作」, "I'm job hunting") and a career change wanted (「想转行做数据分析」, "I want to
    # switch careers into data science"): the goals a job found or the new work ends.
    _r("goal", "zh", _ZH_ME + r"(?:现在|最近|目前|正|还)?(?P<value>在找(?:新)?工作)(?:呢)?$", Slot("goal", "goal-job-change")),
    _r("goal", "en", r"^I(?:'m| am) (?:currently |still |now )?(?P<value>job hunting|job-hunting|looking for (?:a |a new )?(?:job|work))$", Slot("goal", "goal-job-change")),
    _r("goal", "zh", _ZH_ME + r"(?:最近|一直|今年|明年|现在)?(?:很|特别)?(?:想|打算|准备|计划|在考虑)(?:要)?(?P<value>转行(?:去)?(?:做|当|搞|到)?[^，。]{0,12})$", Slot("goal", "goal-career-change")),
    _r("goal", "en", r"^I(?: want| plan|'m planning| am planning|'d like| would like|'m hoping| am hoping|'m trying) to (?P<value>(?:switch|change) careers?\b.*)$", Slot("goal", "goal-career-change")),
    _r("goal", "en", r"^I(?:'m| am) (?:thinking (?:about|of)|considering) (?P<value>(?:a career change|switching careers|changing careers)\b.*)$", Slot("goal", "goal-career-change")),
    # 「想去互联网公司做产品」: the work the user wants, said with where.
    _r("goal", "zh", r"^(?:我)?(?:还|也|以后|将来)?(?:想|希望|打算)(?P<value>(?:去|进)[^，。]{2,10}?(?:做|当)[^，。]{1,8})$", Slot("goal", "goal-job-change")),
    _r("goal", "zh", _ZH_ME + r"(?:终于|已经|刚)?找到(?:了)?(?:新)?工作了$", slot_retirement("goal", "goal-job-change", if_held=True)),
    # ... and the goal of learning it (「想学游泳」, "I want to learn to swim": goal-swimming).
    _r("trait", "en", r"^I (?:can (?:finally )?swim now|(?:finally )?(?:learned|learnt) (?:how )?to swim)\b", slots(slot_retirement("fact", "trait-cannot-swim", if_held=True), *_LEARNING_TO_SWIM)),
    _r("trait", "en", r"^I (?:can (?:finally )?drive now|(?:finally )?(?:learned|learnt) (?:how )?to drive|drive now)\b", slots(slot_retirement("fact", "trait-does-not-drive", if_held=True), _LEARNING_TO_DRIVE)),
    _r("trait", "zh", _ZH_ME + r"(?:终于|已经)?(?:学)?会游泳了$", slots(slot_retirement("fact", "trait-cannot-swim", if_held=True), *_LEARNING_TO_SWIM)),
    _r("trait", "zh", _ZH_ME + r"(?:终于|已经)?(?:学)?会开车了$", slots(slot_retirement("fact", "trait-does-not-drive", if_held=True), _LEARNING_TO_DRIVE)),
    # "My dog passed away", 「我的猫去世了」: the pet's fact is retired.
    _r("pet", "en", r"^(?:my|our) (?:old |little |beloved )?(?P<item>cat|dog|rabbit|hamster|parrot|turtle|goldfish|puppy|kitten|" + _EN_BREEDS + r")(?: \w+)? (?:passed away|died|is gone|ran away)\b", keyed_retirement("pet")),
    _r("pet", "zh", r"^(?:我|我们)(?:的|家的?)?(?P<item>" + _ZH_PETS + r")(?:上个月|上周|前几天|前段时间|昨天|去年|已经)?(?:去世|死|走丢|丢|走|没)了", keyed_retirement("pet")),
    # 「我把猫送人了」: the pet given away.
    _r("pet", "zh", r"^(?:我|我们)?(?:已经)?把(?:我的|我家的?|家里的)?(?P<item>" + _ZH_PETS + r")(?:送人|送走|送给[^，。]{1,6})了", keyed_retirement("pet")),
    _r("pet", "zh", r"(?<![没不])(?<!没有)(?<!不再)(?:养了|养着|养|有|^(?:我们)?(?:我)?家的?)(?:[一二两三四五几\d]+[只条头])?" + ZH + r"{0,2}?(?P<item>" + _ZH_PETS + r")(?![毛皮屑]?过敏)", PET),
    _r("pet", "en", r"^(?:my|our) (?P<item>cat|dog|rabbit|hamster|parrot|turtle|goldfish|puppy|kitten)(?:'s name is|'s called| is called| is named) " + CAP, PET),
    # 「我的猫叫咪咪」, "My cat Miso is 3 years old": the pet named or described, not 「我的猫粮…」.
    _r("pet", "zh", r"^我的(?:[一二两三四五几\d]+[只条头])?" + ZH + r"{0,2}?(?P<item>" + _ZH_PETS + r")(?=叫|的名字|名字|是|今年|已经|对|[一二三四五六七八九十\d]+岁)", PET),
    _r("pet", "en", r"^(?:my|our) (?P<item>cat|dog|rabbit|hamster|parrot|turtle|goldfish|puppy|kitten) " + CAP + r"\w* (?:is|was|likes|loves|has|hates)\b", PET),
    _r("pet", "en", r"^(?:I|we)(?: also)?(?: have| own| keep|'ve got| (?:just |recently |finally )?(?:adopted|got|rescued|brought home)|'ve (?:also )?(?:just |recently )?(?:adopted|got|rescued)) (?:a|an|one|two|three|four|\d+) (?:[\w-]+ ){0,2}(?P<item>" + EN_PET_KINDS + r"|puppy|kitten|" + _EN_BREEDS + r")\b" + _EN_NOT_ALLERGEN, LISTED_PET),
    # "I have a pet axolotl": "pet" says what it is, whatever the kind no list names.
    _r("pet", "en", r"^(?:I|we)(?: also)?(?: have| own|'ve got| got) (?:a|an) pet (?!peeves?\b|projects?\b|theory\b|names?\b|hates?\b)(?P<item>(?-i:[a-z])[\w-]+(?: (?-i:[a-z])[\w-]+)?)$", PET),
    # "We have a cat named Luna and a dog named Max": the second pet of the list.
    _r("pet-more", "en", r"^(?:I|we)(?: have| own|'ve got) .+? and (?:a|an|one|two|three|\d+) (?:[\w-]+ )?(?P<item>" + EN_PET_KINDS + r"|puppy|kitten|" + _EN_BREEDS + r")\b" + _EN_NOT_ALLERGEN, LISTED_PET),
    # Divorced, single, widowed: the status is stated and the partner retired (「我离婚了」 after
    # "My wife is a doctor" leaves no wife). Engaged and married are the partner's fact (below).
    _r("relationship", "en", r"^I(?:'m| am) (?:now |recently |currently |still |happily )?(?P<value>divorced|single|widowed|a widow|a widower)(?: now| again)?$", slots(RELATIONSHIP, _ENDS_PARTNER)),
    _r("relationship", "en", r"^(?:I|we)(?:'ve| have)? (?:just |recently |finally |officially )?(?:got|gotten) (?P<value>divorced)\b", slots(RELATIONSHIP, _ENDS_PARTNER)),
    _r("relationship", "zh", r"^(?:我们|我)?(?:(?:和|跟)(?:我的?)?(?:老公|老婆|丈夫|妻子|爱人|先生|太太))?(?:已经|刚|刚刚|去年|前年|上个月)?(?P<value>离婚|离异|丧偶)(?:[一二三四五六七八九十两几\d]+年)?(?:多)?了?$", slots(RELATIONSHIP, _ENDS_PARTNER)),
    # A divorce under way is the status now; the partner stays until it is done ("I'm divorced").
    _r("relationship", "en", r"^(?:I'm|I am|we're|we are) (?:now |currently |officially )?(?P<value>(?:getting|going to get|about to get) divorced|going through (?:a|my|the) divorce|in the (?:middle|process) of (?:a|my|our|the) divorce|separated)\b", RELATIONSHIP),
    _r("relationship", "en", r"^(?:I|we)(?:'ve| have)? (?:just |recently |finally )?(?P<value>filed for (?:a )?divorce|separated)\b", RELATIONSHIP),
    _r("relationship", "zh", r"^(?:我们|我)?(?:(?:和|跟)(?:我的?)?(?:老公|老婆|丈夫|妻子|爱人|先生|太太))?(?:已经|最近|现在)?(?P<value>(?:在|正在)?(?:闹|办)离婚|(?:在|正在|准备|打算|要)离婚|分居)(?:了|呢|中)?$", RELATIONSHIP),
    _r("relationship", "zh", r"^(?:我)?(?:现在|目前|还|一直|还是)?(?:是)?(?P<value>单身)(?:狗|一个人)?(?:呢|了)?$", slots(RELATIONSHIP, _ENDS_PARTNER)),
    # A child born: 「我们家老三出生了」, "The baby was born last week", "My wife just had a baby girl" (the
    # child's fact, not the partner's; the pregnancy it ends is the health rules').
    _r("family", "zh", r"^(?:我的?|我们?家)?(?P<children>宝宝|孩子|娃|老二|老三|老四|二胎|三胎|女儿|儿子)(?:已经|刚|刚刚|终于|顺利)?出生了", family_fact, family=True),
    _r("family", "en", r"^(?:the|our|my) (?:new )?(?P<children>baby|twins|baby boy|baby girl|little one) (?:was|were|has been|have been) (?:just |finally |safely )?born\b.*$", family_fact, family=True),
    _r("family", "en", r"^my (?:wife|partner|girlfriend) (?:just |finally )?(?:had|gave birth to|delivered) (?:a |our )?(?:healthy )?(?P<children>baby(?: boy| girl)?|son|daughter|twins|little (?:boy|girl))\b.*$", family_fact, family=True),
    # "My wife and I have a daughter", 「我和老婆有两个孩子」: the children, not a fact of the partner's.
    _r("family", "en", r"^(?:my|our) (?:wife|husband|partner|spouse|girlfriend|boyfriend) and I (?:have|'ve got|just had) (?:a|an|one|two|three|four|\d+) (?:[\w-]+ )?(?P<children>daughters?|sons?|kids?|children|child|baby|babies|twins)\b", family_fact, family=True),
    _r("family", "zh", r"^我(?:和|跟)(?:老婆|老公|妻子|丈夫|太太|爱人)有(?:[一两二三四五\d])?个(?:[^，。的]{1,6}的)?(?P<children>孩子|女儿|儿子|宝宝)", family_fact, family=True),
    # "My girlfriend just moved in with me", 「女朋友搬来和我一起住了」: the partner's fact, and no longer alone.
    _r("family", "en", r"^my (?P<partner>girlfriend|boyfriend|partner|wife|husband|fianc[ée]e?) (?:just |finally |recently )?moved in(?: with (?:me|us))?\b", slots(family_fact, slot_retirement("fact", "household", if_held=True)), family=True),
    _r("family", "zh", r"^(?:我的?)?(?P<partner>女朋友|男朋友|对象|未婚妻|未婚夫)(?:已经|刚|最近)?搬(?:过来|进来|来)(?:和|跟)我(?:一起)?住了?$", slots(family_fact, slot_retirement("fact", "household", if_held=True)), family=True),
    _r("family", "zh", r"^(?:我的?|我家)?(?:" + _FAMILY_WORDS + r")", family_fact, family=True),
    _r("family", "zh", r"(?<!没)有(?:[一二两三四五\d]+)?个(?P<children>孩子|女儿|儿子)", family_fact),
    _r("family", "zh", r"(?P<partner>结婚了|已婚|订婚了|再婚了)", slots(family_fact, _ENDS_STATUS)),
    # Twins, or a child said as becoming a parent: 「我家有双胞胎」, 「我刚当妈妈」 (the user's children).
    _r("family", "zh", r"^(?:我|我家)(?:有|生了)(?:一对)?(?P<children>双胞胎|龙凤胎)", family_fact),
    _r("family", "zh", r"^我(?:刚|刚刚|去年|今年)?(?:当|做)(?:了)?(?P<children>妈妈|爸爸|妈|爸)了?$", family_fact),
    # 「我是独生子」, 「我是单亲妈妈」: who is in the family, said of the user.
    _r("family", "zh", r"^我是(?:家里的)?(?P<siblings>独生子|独生女)", family_fact),
    _r("family", "zh", r"^我是(?:一个|个|一名)?单亲(?P<children>妈妈|爸爸|家庭)", family_fact),
    _r("family", "en", r"^I(?:'m| am) (?:an )?(?P<siblings>only child)\b", family_fact),
    # "I have a girlfriend now, her name is Mia" is about her from its second half on (family=True).
    _r("family", "en", r"^I (?:now |finally )?(?:have|'ve got|have got|got) an? (?:new )?(?P<partner>girlfriend|boyfriend)\b", slots(family_fact, _ENDS_STATUS), family=True),
    # The partner and the user broke up or divorced, said with the partner first: "My girlfriend and I broke up",
    # "Anna and I split up", "My wife and I got divorced" (the status as "I got divorced" says it).
    _r("family", "en", r"^(?:my (?:girlfriend|boyfriend|partner|fianc[ée]e?)|(?-i:[A-Z][a-z]+)) and I (?:just |recently |finally )?(?:broke up|split up)\b", _ENDS_PARTNER, family=True),
    _r("family", "en", r"^(?:my (?:wife|husband|partner|spouse)|(?-i:[A-Z][a-z]+)) and I (?:just |recently |finally |officially )?(?:got |are |have )?(?P<value>divorced)\b", slots(RELATIONSHIP, _ENDS_PARTNER), family=True),
    _r("family", "en", r"^my (?:" + _FAMILY_WORDS + r")\b", family_fact, family=True),
    _r("family", "zh", r".+", family_fact, family=True),  # a clause continuing a family member ("是一名医生")
    _r("family", "en", r".+", family_fact, family=True),
    _r("family", "en", r"^I(?: have|'ve got| have got) (?:a|an|one|two|three|four|\d+) (?:[\w-]+ )?(?:(?P<children>sons?|daughters?|kids|children|boys|girls|teenagers|teens|toddlers|step(?:daughter|son|kid|child)s?|stepchildren)|(?P<grandchildren>grandsons?|granddaughters?|grandkids|grandchildren))\b", family_fact),
    # "I'm a father of two", "I'm a grandma of three", "I'm a new mom": the children, or the grandchildren, had.
    _r("family", "en", r"^I(?:'m| am) (?:a )?(?:proud |single |new |first-time )?(?:(?P<children>father|mother|mom|mum|dad|parent)|(?P<grandchildren>grandfather|grandmother|grandma|grandpa|grandparent|granny))(?: (?:of|to) (?:a |an |one|two|three|four|five|six|\d+)\b[\w -]*)?$", family_fact),
    # "We're expecting our second child in March": a child on the way (the user's own pregnancy is a core fact above).
    _r("family", "en", r"^(?:we're|we are|my (?:wife|partner) is) (?:currently )?expecting (?:our |a |another )?(?:first |second |third |fourth |\w+ )?(?P<children>child|baby|kid|twins)\b", family_fact),
    # A partner now, and a break-up: 「我有女朋友了」, "I have a girlfriend now" end a single status said
    # before; 「我们分手了」, "We broke up" end the partner held (nothing when none is).
    _r("family", "zh", r"^(?:我)?(?:现在|已经|终于)?有(?:了)?(?P<partner>女朋友|男朋友|对象)了?$", slots(family_fact, _ENDS_STATUS)),
    _r("relationship", "en", r"^(?:we|I)(?:'ve| have)? (?:just |recently |finally )?(?:broke up|broken up|split up)\b(?! with (?:the|this|that|a|an) )", _ENDS_PARTNER),
    _r("relationship", "zh", r"^(?:我们|我)?(?:(?:和|跟)(?:我的?)?(?:女朋友|男朋友|对象|女友|男友|他|她|[\u4e00-\u9fff]{2,3}?))?(?:已经|刚|刚刚|上个月|上周|去年|前几天)?分手了?$", _ENDS_PARTNER),
    # Married or engaged: the partner's fact, and a divorced or single status said before is over.
    _r("family", "en", r"^I(?:'m| am| (?:just |recently )?got) (?:now |recently |just |happily )?(?P<partner>married|engaged|remarried)\b", slots(family_fact, _ENDS_STATUS)),
    # "We got married last Saturday" (after "I'm engaged"): the partner's fact, as "I got married" is.
    _r("family", "en", r"^we (?:just |finally |recently |officially )?got (?P<partner>married|engaged)\b", slots(family_fact, _ENDS_STATUS)),
    # "Alex and I got engaged!", "I'm dating someone named Alex": the partner, by name or not.
    _r("family", "en", r"^(?-i:[A-Z][a-z]+) and I (?:just |finally |recently |officially )?got (?P<partner>married|engaged)\b", slots(family_fact, _ENDS_STATUS)),
    _r("family", "en", r"^I(?:'m| am) (?:now |currently )?(?P<partner>dating|seeing) (?:someone|somebody|a (?:guy|girl|woman|man))\b.*$", slots(family_fact, _ENDS_STATUS)),
    _r("family", "zh", r"^(?:我们|我)(?:已经|刚|终于|上周|上个月|昨天)?(?P<partner>结婚|领证|订婚)了$", slots(family_fact, _ENDS_STATUS)),
    # "My husband and I have been married for 10 years" (said as "we"), 「我们结婚十年了」: the partner's fact.
    _r("family", "en", r"^(?:we|I)(?:'ve| have) been (?P<partner>married|together)(?: for [\w -]+)?$", family_fact),
    _r("family", "zh", r"^(?:我们|我(?:和|跟)(?:老婆|老公|妻子|丈夫|太太|爱人|对象|男朋友|女朋友)|我)(?P<partner>结婚|在一起)(?:已经|快|有)?(?:[一二两三四五六七八九十几\d半]+|好几|很多)(?:个)?(?:年|个月|月)(?:多)?了$", family_fact),
    _r("family", "en", r"^I(?: have|'ve got| have got) (?P<children>twins|triplets|an? (?:new )?(?:newborn|baby|toddler)(?= *(?:[.!,;]|$| and | who | who's | named | at home| now)))\b", family_fact),
    _r("family", "en", r"^I(?:'m| am) (?:a )?(?:single|new|first-time) (?P<children>mom|dad|mother|father|parent)\b", family_fact),
    _r("family", "en", r"^(?:we|I) (?:just |recently |finally )?had (?P<children>a baby|a baby (?:girl|boy)|twins|a (?:son|daughter)|our (?:first|second|third|fourth|fifth|\d+(?:st|nd|rd|th)) (?:child|baby|kid|son|daughter))\b", family_fact),
    _r("household", "en", r"^I(?: (?:still |currently |now )?live|'m living| am living) (?P<value>alone|by myself|on my own)(?: now)?$", LIVES_ALONE),
    _r("household", "en", r"^I(?: (?:still |currently |now )?live|'m living| am living) (?P<value>with (?:\w+ )?(?:roommates?|housemates?|flatmates?|friends?))(?: now)?$", HOUSEHOLD),
    _r("household", "zh", r"^我(?:现在|目前|一直|还)?(?P<value>一个人住|独居|(?:和|跟)(?:室友|朋友|同学|同事)(?:一起)?(?:合租|住))", HOUSEHOLD),
    # Sharing a flat with a number of flatmates, one wording: 「我跟两个室友合租」, 「我和另外两个人合租一套房子」.
    _r("household", "zh", r"^我(?:现在|目前|一直)?(?:是)?(?:跟|和)(?:另外)?(?P<value>(?:\d{1,2}|[一二两三四五六七八九十]{1,3}))个(?:室友|人)(?:一起)?合租(?:一套房子?)?$", ROOMMATES),
    _r("household", "zh", r"^(?:我)?有(?P<value>(?:\d{1,2}|[一二两三四五六七八九十]{1,3}))个室友$", ROOMMATES, after="household"),
    _r("household", "en", r"^I (?:live|share (?:a|an|my) (?:flat|apartment|house|place)) with (?P<value>(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)) (?:roommates|housemates|flatmates)$", ROOMMATES),
    # Who the user lives with: 「我和父母住在一起」, "I live with my parents" (a family fact, not a city).
    _r("family", "zh", r"^我(?:现在|目前|一直|还)?(?:和|跟)(?:我的?)?(?:(?P<parents>父母|爸妈|爸爸妈妈)|(?P<partner>男朋友|女朋友|对象|老公|老婆))(?:一起)?住", family_fact),
    _r("family", "en", r"^I(?: (?:still |currently |now )?live|'m living| am living) with my (?:(?P<parents>parents|mom|mother|dad|father)|(?P<partner>girlfriend|boyfriend|partner|wife|husband))\b", family_fact),
    # What the user usually spends, which every recommendation should heed: 「我的预算一般在五千以内」, "My budget is
    # usually under $500", "I'm on a tight budget": said as usual. Not one purchase's or trip's (「这次旅行预算五千」, 「我的预算
    # 不超过五千」 said with a request, "My budget is around $2,000").
    _r("budget", "zh", r"^(?=[^，。]*(?:一般|通常|平时|基本|每个?月))(?:我的?|我)?(?:每个?月)?(?:一般|通常|平时)?(?:买东西|网购|购物)?(?:的)?(?:预算|消费)(?:一般|通常|平时|基本上?|大概)?(?:都)?(?:在|是|控制在|不超过|不会超过)?(?P<value>[\d一二三四五六七八九十两百千万几]+(?:块|元|块钱)?)(?:以内|以下|左右|之内)?$", BUDGET),
    _r("budget", "en", r"^my (?:(?P<usual>usual|monthly|typical) )?budget (?:is|'s) (?(usual)|(?:usually|generally|normally|typically|always) )(?:under |below |less than |up to |around |about |at most )?(?P<value>" + _EN_AMOUNT + r"(?: (?:dollars|bucks|usd|euros|pounds|rmb|yuan))?)(?: or (?:less|so))?$", BUDGET),
    _r("budget", "en", r"^I(?:'m| am) (?:currently |usually |always )?on a (?P<value>(?:tight |strict |limited |small )?budget)(?: these days| right now| now)?$", BUDGET),
    # "Money is tight for me right now", "I'm trying to spend as little as possible": a tight budget, said otherwise.
    _r("budget", "en", r"^money(?:'s| is) (?:really |pretty |very |a bit |kind of )?(?P<value>tight)(?: for (?:me|us))?(?: right now| these days| at the moment| this month| now)?$", TIGHT_BUDGET),
    _r("budget", "en", r"^I(?:'m| am) trying to (?P<value>spend as little as possible|keep (?:my )?(?:spending|costs|expenses) (?:low|down))(?: right now| these days| now)?$", TIGHT_BUDGET),
    _r("budget", "en", r"^I (?:put|save|set aside|stash|move) (?P<value>\d{1,2}%) (?:of )?(?:(?:each|every|my) )?(?:paycheck|pay|salary|income)(?: (?:into|in|to) (?:savings|my savings(?: account)?))?$", SAVINGS_RATE),
    _r("budget", "en", r"^(?P<value>\d{1,2}%) of (?:each|every|my) (?:paycheck|pay|salary) goes (?:straight )?(?:into|to) (?:savings|my savings(?: account)?)$", SAVINGS_RATE),
    _r("budget", "en", r"^I(?:'ve| have)? (?:bumped|raised|increased|upped|cut|lowered|dropped) my savings(?: rate)? (?:up |down )?to (?P<value>\d{1,2}%)(?: of (?:each|every|my) (?:paycheck|pay|salary))?$", SAVINGS_RATE),
    _r("budget", "en", r"^my car (?:payment|loan payment|note) is (?:about |around )?(?P<value>" + _EN_AMOUNT + r") (?:a|per|each) month(?: now)?$", CAR_PAYMENT),
    _r("budget", "en", r"^I pay (?:about |around )?(?P<value>" + _EN_AMOUNT + r") (?:a|per|each) month (?:on|for) (?:my |the )?car(?: loan| payment| note)?$", CAR_PAYMENT),
    _r("budget", "en", r"^(?:every|each) month,? (?P<value>" + _EN_AMOUNT + r") goes (?:to|toward|towards) (?:my |the )?car (?:payment|loan)$", CAR_PAYMENT),
    # What the user gives their parents, pays on a mortgage or still owes on student loans, each month or in all.
    _r("budget", "zh", r"^(?:我)?(?:每个月|每月)(?:我)?(?:都)?(?:会)?(?:固定)?(?:给|打给)(?:我)?(?:爸妈|父母|爸爸妈妈|老爸老妈)(?:打|转)?(?P<value>" + _ZH_AMOUNT + r")(?:块钱|块|元)?(?:的)?生活费$", PARENTS_ALLOWANCE),
    _r("budget", "zh", r"^(?:我)?(?:给|每个?月给)(?:我)?(?:爸妈|父母|爸爸妈妈)的生活费(?:我)?(?:现在)?(?:涨到|加到|提到|降到|减到|改成|调到)(?:了)?(?:每个?月)?(?P<value>" + _ZH_AMOUNT + r")(?:块钱|块|元)?了?$", PARENTS_ALLOWANCE),
    _r("budget", "zh", r"^(?:我)?(?:现在)?(?:每个月|每月|一个月)?(?:的)?房贷(?:我)?(?:每个月|每月|一个月)?(?:要|得|需要)?(?:还)?(?:款)?(?:是)?(?P<value>" + _ZH_AMOUNT + r")(?:块钱|块|元)?了?$", MORTGAGE),
    _r("budget", "zh", r"^(?:我)?(?:现在)?(?:每个月|每月)(?:的)?房贷还款(?:是|要)?(?P<value>" + _ZH_AMOUNT + r")(?:块钱|块|元)?了?$", MORTGAGE),
    _r("budget", "en", r"^(?:I send|I give|I pay) (?:my )?(?:parents|mom and dad) (?P<value>" + _EN_AMOUNT + r"|\d+ grand) (?:a|per|each|every) month$", PARENTS_ALLOWANCE),
    _r("budget", "en", r"^my mortgage (?:payment )?is (?:about |around |roughly )?(?P<value>" + _EN_AMOUNT + r"|\d+ grand) (?:a|per|each) month$", MORTGAGE),
    _r("budget", "en", r"^I pay (?:about |around |roughly )?(?P<value>" + _EN_AMOUNT + r"|\d+ grand) (?:a|per|each) month (?:on|for) (?:my |the )?mortgage$", MORTGAGE),
    _r("budget", "en", r"^I (?:have|'ve got|still have|still owe|owe) (?:about |around |roughly )?(?P<value>" + _EN_AMOUNT + r"|\d+ grand) (?:left )?(?:in|on) (?:my )?student loans?$", STUDENT_LOANS),
    _r("budget", "en", r"^my (?:remaining )?student loan (?:balance|debt) is (?:about |around |roughly )?(?P<value>" + _EN_AMOUNT + r"|\d+ grand)(?: left)?$", STUDENT_LOANS),
    _r("budget", "en", r"^I(?:'ve| have) paid (?:my|off my)? ?student loans? down to (?:about |around |roughly )?(?P<value>" + _EN_AMOUNT + r"|\d+ grand)$", STUDENT_LOANS),
    # What a trip or a holiday may cost: one amount (`builders.amount_in_digits`), so that another is a new value.
    _r("budget", "en", r"^my (?:vacation|travel|trip|holiday) budget (?:is|'s) (?:usually |typically |normally |generally )?(?:around |about |roughly |up to )?(?P<value>" + _EN_AMOUNT + r")(?: or so)?(?: a trip| per trip)?$", TRAVEL_BUDGET),
    _r("budget", "en", r"^I (?:usually |typically |normally |generally )?(?:spend|budget) (?:about |around |roughly |up to )?(?P<value>" + _EN_AMOUNT + r") (?:on|for) (?:a |my |each |every )?(?:vacations?|trips?|holidays?|travel)$", TRAVEL_BUDGET),
    _r("budget", "en", r"^I(?:'ve| have) (?:raised|increased|bumped|upped|lowered|cut|reduced|changed) my (?:vacation|travel|trip|holiday) budget (?:up |down )?to (?:about |around |roughly )?(?P<value>" + _EN_AMOUNT + r")$", TRAVEL_BUDGET),
    _r("commute", "en", r"^I (?:usually |always |mostly |normally |often )?(?:commute|get to work|go to work|ride to work) (?:by|on) (?P<value>bike|bicycle|car|train|bus|subway|metro|foot|scooter|motorcycle|ferry)(?: now| these days)?$", COMMUTE_MODE),
    _r("commute", "en", r"^(?:my commute is|I commute) (?:by|on) (?:the )?(?P<value>bike|bicycle|car|train|bus|subway|metro|foot|scooter|motorcycle|ferry)(?: now| these days)?$", COMMUTE_MODE),
    _r("commute", "en", r"^I (?:usually |always |mostly |normally |often )?(?:take|ride|catch) the (?P<value>train|bus|subway|metro|tube|ferry) (?:to work|into work|getting to work|to get to work)(?: now| these days)?$", COMMUTE_MODE),
    _r("commute", "en", r"^I (?:usually |always |normally )?(?P<value>drive|bike|cycle|walk) to work(?: now| these days)?$", COMMUTE_MODE),
    _r("commute", "zh", r"(?P<value>开车|(?:坐|搭|乘)?地铁|(?:坐|搭|乘)?公交|骑车|骑电动车|走路|步行|打车)(?:上下班|上班|通勤)", COMMUTE),
    # How long the way to work takes, said without the way: 「我上班单程要一个小时」, 「从家到公司我单程得花一个小时左右」,
    # 「单程大概一小时」, "It takes me 45 minutes to get to work" (in minutes: `builders.minutes_said`).
    _r("commute", "zh", r"^(?:我)?(?:现在|每天|平时|一般)?(?:从家到公司|从家里到公司|上班|去公司|上下班)(?:我)?(?:单程|路上)?(?:要|得|需要)?(?:花)?(?:大概|大约|差不多)?(?P<value>" + ZH_DURATION + r")(?:左右)?(?:就(?:能)?到)?了?$", COMMUTE_TIME),
    _r("commute", "zh", r"^(?:上班)?单程(?:要|得|需要)?(?:花)?(?:大概|大约|差不多)?(?P<value>" + ZH_DURATION + r")(?:左右)?$", COMMUTE_TIME),
    _r("commute", "en", r"^(?:it takes me|my commute is|my commute takes(?: me)?) (?:about |around |roughly |only |just )?(?P<value>half an hour|an hour|one hour|\d{1,3} minutes)(?: each way| one way)?(?: to get to work)?$", COMMUTE_TIME),
    # 「现在走路十分钟就到公司」: how long the way to work takes now, said by the way there.
    _r("commute", "zh", r"(?P<value>(?:开车|走路|步行|骑车|骑电动车|坐地铁|地铁|坐公交|公交)(?:只要|要|大概)?[一二三四五六七八九十两半几\d]+(?:个)?(?:多|半)?(?:小时|钟头|分钟)(?:左右)?)(?:就)?(?:能)?到(?:公司|单位)", COMMUTE),
    _r("commute", "zh", r"^(?:我)?(?:每天|平时|一般)?(?:上下班)?通勤(?:要|得|大概|差不多|单程|来回)*(?P<value>[一二三四五六七八九十两半几\d]+(?:个)?(?:多|半)?(?:小时|钟头|分钟)(?:左右)?)", COMMUTE),
    _r("commute", "en", r"^(?:my )?commute (?:is|takes)(?: me)? (?:about |around |over |almost |nearly )?(?P<value>(?:an?|\d+|one|two|three|half an) (?:hours?|minutes?|mins?))\b", COMMUTE),
    _r("commute", "en", r"^I (?:usually |always |normally )?(?P<value>drive|bike|cycle|walk|take the (?:train|bus|subway|metro|tube)) to work\b", COMMUTE),
    # Not a train, a bus or a plane a driver drives at work (「我开的是成都地铁2号线」).
    _r("vehicle", "zh", r"^(?:我)?(?:开的是|开一辆|的车是)(?!.*(?:地铁|公交|大巴|班车|火车|高铁|动车|列车|轮渡|飞机|出租车|网约车|校车))(?P<value>[^，。]+)$", Slot("fact", "vehicle")),
    # 「（我刚买了辆车，）买的是比亚迪」, 「换成特斯拉了」, 「我开比亚迪」: a make named, the car is the user's.
    _r("vehicle", "zh", r"^(?:我)?(?:刚|最近|去年|今年|现在)?(?:买的是|提的是|新车是|换成了?|换了(?:一?[辆台])?|开)(?P<value>(?:" + _ZH_CAR_MAKES + r"|" + _CAR_MAKES + r")[^，。]{0,8}?)(?:了|的)?$", Slot("fact", "vehicle")),
    # 「换了辆比亚迪」, 「新买了一辆理想」: the car now; 「把特斯拉卖了」 ends the car held that names it.
    _r("vehicle", "zh", r"^(?:我)?(?:刚|最近|去年|今年)?(?:换了|新买了|买了|提了)(?:一)?辆(?:新车，?)?(?P<value>(?!新车$|车$)[^，。]{2,12})$", Slot("fact", "vehicle")),
    _r("vehicle", "zh", r"^(?:我)?(?:已经|刚)?把(?P<item>[^，。]{2,8}?)(?:卖了|卖掉了|处理掉了)$", named_retirement("vehicle")),
    # "I sold my car" ends the vehicle held; "I sold my guitar" the one thing held that names it.
    _r("vehicle", "en", r"^(?:I|we)(?:'ve| have)? (?:just |finally |recently )?sold (?:my|our) (?:old )?(?:car|truck|SUV|van|minivan|motorcycle|motorbike|scooter)\b", slot_retirement("fact", "vehicle", if_held=True)),
    _r("vehicle", "en", r"^(?:I|we)(?:'ve| have)? (?:just |finally |recently )?(?:sold|gave away|given away|got rid of) (?:my|our) (?:old )?(?P<item>[\w -]{3,20}?)(?: (?:last|this) \w+| \w+ ago)?$", named_retirement("music-", "sport-", "vehicle", *_SWITCHED_FROM, one_of=True)),
    # The car driven, said one way (`builders.car_named`): "I drive a 2016 Honda Civic", "My car is a 2016 Civic", "I get
    # around in a 2016 Honda Civic".
    _r("vehicle", "en", r"^(?:I drive|I get around in|my car is|I'm driving) an? (?P<value>(?:(?:19|20)\d\d )?" + CAP + r"[\w-]*(?: [\w-]+){0,3})$", CAR_DRIVEN),
    # What one owns is a vehicle only when it is one: "I have a MacBook Pro" is a device.
    _r("vehicle", "en", r"^I (?:just |recently |finally )?(?:own|have|bought|got|leased) an? (?:new )?(?P<value>(?:(?:" + _CAR_MAKES + r")\b[\w-]*(?: [\w-]+){0,3}|(?:[\w-]+ ){0,2}(?:car|truck|SUV|pickup|minivan|van|motorcycle|motorbike|scooter)))$", Slot("fact", "vehicle")),
    # The user's own business (「我自己开了个工作室」), not one that opened nearby (「我们公司楼下新开了一家咖啡店」).
    _r("business", "zh", r"^(?:我|我们|本人)(?:自己|和[^，。]{1,3}|跟[^，。]{1,3}|在[^，。]{2,6}|去年|今年|前年)*(?:开了|经营|开着)(?:一家|一间|家|个)(?P<item>[^，。]*?(?:店|馆|公司|工作室|餐厅|诊所))", BUSINESS),
    _r("work-manager", "en", r"^I (?:now )?report to (?P<value>(?-i:[A-Z])[a-z]+)(?:, (?:she|he|they)(?:'s| is| are) my (?:manager|boss))?$", WORK_MANAGER),
    _r("side-job", "zh", r"^(?:我)?(?:下班后|业余时间|平时|周末|除了本职工作)?(?:我)?(?:还)?(?:在网上)?(?:接|做)(?:点|些)?(?P<value>翻译|设计|编程|写作|摄影|家教|剪辑|配音|代写|校对)(?:的)?(?:活儿?|兼职|单子|私活)?(?:赚外快|赚点外快)?$", SIDE_JOB),
    _r("side-job", "en", r"^(?:my side (?:gig|job|hustle) (?:now )?is|I do|I've been doing|I do some) (?P<value>(?:freelance )?(?:proofreading|translation|translating|tutoring|editing|copywriting|web design|graphic design|photography|dog walking))(?: on the side| as a side (?:gig|job|hustle))?$", SIDE_JOB),
    # "I closed the Etsy candle shop": the business naming Etsy is over.
    _r("business", "en", r"^I(?:'ve| have)? (?:closed|shut down|sold|gave up|quit) (?:my |the |our )?(?P<item>(?-i:[A-Z])[\w'-]+)(?: [\w -]+?)? (?:shop|store|business|company|cafe|restaurant|bakery|studio)$", named_retirement("business-")),
    _r("business", "en", r"^I (?:run|own) an? (?:small |little |local )?(?P<item>[\w -]+?(?:shop|store|bakery|cafe|restaurant|company|business|studio|clinic|agency|bar|salon))\b", BUSINESS),
    _r("native-language", "zh", r"母语是(?P<value>[^，。]+)$", NATIVE_LANGUAGE),
    _r("native-language", "en", r"^my (?:native|first|mother) (?:language|tongue) is (?P<value>" + CAP + r"\w+)", NATIVE_LANGUAGE),
    _r("native-language", "en", r"^I(?:'m| am) a native (?P<value>" + CAP + r"\w+) speaker\b", NATIVE_LANGUAGE),
    _r("spoken-languages", "zh", r"(?:会说|能说|会讲|能讲)(?P<value>[^，。]*(?:" + _LANGUAGES_ZH + r"|[一二两三四五六七八九十几\d]+(?:种|门)(?:语言|外语))[^，。]*)$", Slot("fact", "spoken-languages")),
    # 「我能用闽南话跟人聊天」: a language the user can talk to people in.
    _r("spoken-languages", "zh", r"(?:能|会|可以)用(?P<value>" + _LANGUAGES_ZH + r")(?:跟|和|与)(?:人|别人|大家)(?:聊天|交流|沟通|说话|聊)", Slot("fact", "spoken-languages")),
    _r("spoken-languages", "en", r"^I speak (?P<value>.*\b(?:" + _LANGUAGES_EN + r")\b.*)$", Slot("fact", "spoken-languages")),
    # How well the user speaks one language, under a key of its own (the languages spoken are one list, above): "I'm
    # fluent in Spanish", "My English isn't very good", 「我英语不太好」, 「我的日语很流利」.
    _r("language-level", "en", r"^I(?:'m| am) (?:now |also |pretty |quite |fairly |completely )?(?P<level>fluent|conversational|bilingual|proficient) in (?P<item>" + _LANGUAGES_EN + r")(?: now)?$", language_level),
    _r("language-level", "en", r"^my (?P<item>" + _LANGUAGES_EN + r")(?P<level>(?: is|'s| isn't| is not) (?:not )?(?:very |really |pretty |quite |that |too |a bit |a little |still |only )*(?:good|great|bad|poor|basic|rusty|limited|fluent|decent|ok|okay|weak|terrible))(?: now)?$", language_level),
    # A level of the European framework: 「我法语是A2水平」, 「法语我学到A2级别了」, "My French is at A2".
    _r("language-level", "zh", r"^(?:我的?)?(?P<item>" + _LANGUAGES_ZH + r")(?:我)?(?:现在|目前)?(?:是|到|学到|考到|考过了?)了?(?P<level>[ABCabc][12])(?:水平|级别|级)?(?:了|的水平)?$", language_level),
    _r("language-level", "zh", r"^(?:我的?)?(?P<item>" + _LANGUAGES_ZH + r")(?:我)?(?P<level>[ABCabc][12])(?:考过了?|考下来了?|过了)$", language_level),
    _r("language-level", "en", r"^my (?P<item>" + _LANGUAGES_EN + r") is (?:at |now )?(?:an? )?(?P<level>[ABC][12])(?: level)?(?: now)?$", language_level),
    _r("language-level", "en", r"^I(?:'m| am) (?:at )?(?:an? )?(?P<level>[ABC][12])(?: level)? in (?P<item>" + _LANGUAGES_EN + r")(?: now)?$", language_level),
    _r("language-level", "zh", r"^(?:我的?)?(?P<item>" + _LANGUAGES_ZH + r")(?:水平|口语)?(?:现在|目前)?(?:也)?(?P<level>不太好|不好|一般般?|还行|还可以|很好|挺好|不错|很流利|挺流利|流利|比较差|很差|不太行|不行|很烂|很一般|马马虎虎|凑合|生疏了)了?$", language_level),
    _r("timezone", "zh", r"(?:^|在|是|用|时区是?)(?P<value>东[一二三四五六七八九十]{1,2}区|西[一二三四五六七八九十]{1,2}区|UTC\s?[+-]\s?\d{1,2}|GMT\s?[+-]?\s?\d{0,2})", TIMEZONE),
    # 「时间都按北京时间说」: the time zone every time is said in.
    _r("timezone", "zh", r"^(?:以后)?(?:时间)?(?:都|请|一律)*(?:按|用)(?P<value>北京时间|东八区|美东时间|美西时间|日本时间|伦敦时间)(?:来)?(?:说|算|显示|写|讲)?$", TIMEZONE),
    _r("timezone", "en", r"^(?:I'm|I am|we're|we are) (?:in|on) (?:the )?(?P<value>" + CAP + r"[a-z]+(?: " + CAP + r"[a-z]+)?) time ?zone", TIMEZONE),
    _r("timezone", "en", r"^my time ?zone is (?P<value>[\w+:/ -]+?)(?: now)?$", TIMEZONE),
    _r("timezone", "en", r"^(?:I'm|I am|we're|we are) (?:in|on) (?:the )?(?P<value>(?:UTC|GMT) ?[+-] ?\d{1,2}(?::\d\d)?|(?-i:[A-Z]{2,4}T)) time ?zone\b", TIMEZONE),
    _r("timezone", "en", r"^(?:I'm|I am|I live) on (?P<value>(?:UTC|GMT)(?:[+-]\d{1,2})?|(?-i:[A-Z]{2,4}T)|" + CAP + r"[a-z]+ time)\b", TIMEZONE),
    _r("birthday", "zh", r"生日是(?P<value>[^，。]+)$", BIRTHDAY),
    _r("birthday", "en", r"^my birthday is (?:on )?(?P<value>.+)$", BIRTHDAY),
    _r("birthday", "en", r"^I was born on (?P<value>.+)$", BIRTHDAY),
    _r("education-major", "zh", r"(?:学的是|读的是|专业是|(?:研究)?方向是)(?P<value>[^，。]+?)(?:专业)?$", EDUCATION),
    _r("occupation", "zh", r"^(?:我)?(?:现在|目前|还)?在(?P<value>读研|读博|读大学|读本科|读高中|读研究生)$", OCCUPATION_STATED),
    # 「我在读计算机硕士」, 「在美国留学」: a student, with the subject or the country.
    _r("occupation", "zh", r"^(?:我)?(?:现在|目前|还|正)?在?(?P<value>读(?!书)[^，。]{1,8}?(?:硕士|研究生|博士|本科)(?:学位)?)$", OCCUPATION_STATED),
    _r("occupation", "zh", r"^(?:我)?(?:现在|目前|还|正)?在(?P<value>[^，。]{2,6}?)留学$", OCCUPATION_STATED),
    _r("education-major", "en", r"^I (?:studied|majored in|have a degree in|did my degree in) (?!hard|a lot|all|abroad|for|late|together|with|at|in|on|every|so|really|pretty|my|it|them|there|here)(?P<value>[\w ]+)", EDUCATION),
    _r("education-major", "en", r"^I (?:have|hold|got|earned|did) an? (?:PhD|Ph\.D\.|doctorate|master's|masters|bachelor's|bachelors|MBA|degree|MSc|BSc|MA|BA)(?: degree)? in (?P<value>[\w ]{2,40})$", EDUCATION),
    _r("alma-mater", "en", r"^I (?:graduated|got my degree) from (?P<value>(?:the )?" + CAP + r"[\w&.'-]*(?: (?:of )?" + CAP + r"[\w&.'-]*){0,4})", ALMA_MATER),
    _r("alma-mater", "zh", r"^(?:我)?(?:是)?(?P<value>" + ZH_OR_LATIN + r"{2,10}?)(?:大学|学院)?(?:本科|硕士|研究生|博士)?毕业的?$", ALMA_MATER_ZH),
    _r("alma-mater", "zh", r"^(?:我)?(?:本科|硕士|研究生|博士)?毕业于(?P<value>[^，。]{2,12})$", ALMA_MATER),
    # "I'm studying Korean" is a language learned (a goal), "I'm majoring in Korean" the major.
    _r("education-major", "en", r"^I(?:'m| am)? (?:(?:study|studying) (?!(?:" + _LANGUAGES_EN + r")$)|majoring in |major in )(?!for\b|to\b|hard\b|at\b)(?P<value>[a-z][\w ]{2,40})$", EDUCATION),
    # ---- constraints: the slots, then any other standing rule ----------------------------
    # "Please correct my Spanish mistakes", "When I make mistakes in Spanish, correct me", 「我说错了请纠正我」: what the
    # assistant does with the user's mistakes, from now on.
    _r("constraint", "en", r"^(?:(?:when|whenever|if) I make (?:a )?mistakes?\b.*\bcorrect me\b|(?:please )?(?:always )?correct (?:my (?:\w+ )?(?:mistakes|errors|grammar)\b|my \w+ (?:when|whenever|if)\b|me (?:when|whenever|if) I\b)).*$", standing_rule, standing=True),
    _r("constraint", "zh", r"^(?:如果|要是|只要)?我(?:的)?(?:\w{0,4})?(?:说错了?|写错了?|有错误?|用错了?|语法错了?)(?:的话)?[，,]?(?:请|麻烦|记得|要)?(?:帮我)?(?:纠正|指出|改正)(?:我|一下|出来)*$", standing_rule, standing=True),
    # 「不用对我那么客气」: how the assistant talks to the user, said without 说话 or 回复.
    _r("constraint", "zh", r"^(?:你)?(?:不用|别|不必|不要)(?:对我|跟我)(?:说话)?(?:那么|这么|太)?(?P<value>客气|拘谨|正式|严肃)(?:了|啦)?$", REPLY_STYLE, standing=True),
    # 「以后多举例子」, 「回答多给一些例子」: examples asked for in every reply (rule-examples, as 「解释的时候多举例子」).
    _r("constraint", "zh", r"^(?:以后|今后|请|回答|回复|解释|讲解)*(?:的时候|时)?(?:都|请)?(?:多|多多|尽量多)(?:举|给|用|讲)(?:一些|些|点|几个)?(?:例子|实例|案例|示例)(?:吧|哦)?$", standing_rule, standing=True),
    # How long code in a reply should be, a slot of its own beside the reply's length: 「代码示例尽量短一点」,
    # 「给我的代码别太长」, "Keep code examples short" (not reply-style: 「回答简短一点」 stays as it is).
    _r("constraint", "zh", r"^(?:给我的|你给的|以后)?(?:代码示例|示例代码|代码例子|代码)(?:请|都|尽量|最好)*(?P<value>(?:写得?)?(?:短|简短|简洁|精简)(?:一点|一些|些)?|(?:别|不要|不用)(?:写得?)?(?:太|那么)?长)(?:吧|就行|就好)?$", REPLY_CODE_LENGTH, standing=True),
    _r("constraint", "en", r"^(?:please )?keep (?:the |your )?(?:code examples|code snippets|code samples|code) (?P<value>short|brief|concise|minimal)\b", REPLY_CODE_LENGTH, standing=True),
    _r("constraint", "zh", r"(?:注释|commit)[^，。]{0,8}?(?:用|使用)(?P<value>" + _LANGUAGES_ZH + r")", Slot("constraint", "code-comment-language"), standing=True),
    _r("constraint", "en", r"^(?:please )?(?:always )?(?:keep|write|put) (?:all |the |your )?(?:code )?(?:comments|commit messages) in (?P<value>" + _LANGUAGES_EN + r")\b", Slot("constraint", "code-comment-language"), standing=True),
    # Not after 不/别/不要/不再: 「以后不用中文回复了」 says which language not to use.
    _r("constraint", "zh", r"(?<!不)(?<!别)(?<!不要)(?<!不再)(?:用|使用|以)(?P<value>" + _LANGUAGES_ZH + r")(?:来)?(?:回复|回答|回我|交流|沟通|(?:跟|和)我(?:说|聊|讲)|说话|聊)", REPLY_LANGUAGE, standing=True),
    _r("constraint", "zh", r"(?:不用|别用|不要用|不再用)(?:" + _LANGUAGES_ZH + r")(?:来)?(?:回复|回答|回我|交流|沟通|(?:跟|和)我(?:说|聊|讲)|说话|聊)", slot_retirement("constraint", "reply-language"), standing=True),
    # 「…，用英文」 right after a reply rule: the language that rule switches to.
    _r("constraint", "zh", r"^(?:请|要|就|改|换成?|还是|都)?(?:用|使用)(?P<value>" + _LANGUAGES_ZH + r")(?:吧|了|就行|就好)?$", REPLY_LANGUAGE_AFTER_RULE, standing=True, after="reply-"),
    # 「以后还是用中文」, 「还是用中文吧」 said alone: the language of the conversation from now on (or back to it).
    _r("constraint", "zh", r"^(?:(?:以后|今后|之后|从现在开始)(?:还是|都|就|请)*|还是)(?:用|使用)(?P<value>" + _LANGUAGES_ZH + r")(?:吧|了|就行|就好)?$", REPLY_LANGUAGE_AFTER_RULE, standing=True),
    # "Actually English is fine" right after a reply-language rule: the language it now is.
    _r("constraint", "en", r"^(?P<value>" + _LANGUAGES_EN + r") is (?:fine|ok|okay|good|better)(?: too| then| now| instead)?$", REPLY_LANGUAGE_AFTER_RULE, standing=True, after="reply-"),
    _r("constraint", "en", r"\b(?:stop|don't|do not|no more) (?:reply(?:ing)?|respond(?:ing)?|answer(?:ing)?|writ(?:e|ing))(?: to me)? in \w+,? (?:and )?(?:use|reply in|answer in|respond in|switch to|write in) (?P<value>" + _LANGUAGES_EN + r")\b", REPLY_LANGUAGE, standing=True),
    # "You don't have to answer in English anymore", "Stop replying in English": the language rule taken back.
    _r("constraint", "en", r"^(?:please )?(?:you )?(?:(?:don't|do not|no need to|needn't|no longer)(?: (?:have|need) to)?|(?:can )?stop) (?:reply(?:ing)?|respond(?:ing)?|answer(?:ing)?|writ(?:e|ing))(?: to me)? (?:only )?in (?:" + _LANGUAGES_EN + r")\b", slot_retirement("constraint", "reply-language"), standing=True),
    # "Reply in whatever language I write in", 「我用什么语言你就用什么语言回复」: the reply follows the user's language.
    _r("constraint", "en", r"\b(?:reply|respond|answer|write back|talk to me)(?: to me| me)? in (?P<value>(?:whatever|the same) language (?:I (?:write|use|speak|type)|as me|as I do|I'm using)(?: in)?)(?: to you)?\b", REPLY_LANGUAGE, standing=True),
    # "Switch back to English please", "Please go back to Chinese": the reply language now.
    _r("constraint", "en", r"^(?:please |can you |could you )?(?:switch|go|change|move)(?: back)? to (?P<value>" + _LANGUAGES_EN + r")(?: (?:please|from now on|again|for (?:your )?(?:replies|answers)))*$", REPLY_LANGUAGE, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:just )?(?P<value>match (?:my|whatever) language(?: I (?:write|use|speak)(?: in)?)?)", REPLY_LANGUAGE, standing=True),
    _r("constraint", "zh", r"(?P<value>我用什么语言你就用什么语言|跟着?我(?:用)?的?语言走|(?:用|跟|和)我(?:用|说)?的?(?:一样|同样|相同)的语言)", REPLY_LANGUAGE, standing=True),
    _r("constraint", "zh", r"(?:回复|回答|说话|聊天|交流)[^，。]{0,10}?(?<!不)(?<!别)(?<!不要)(?:用|使用)(?P<value>" + _LANGUAGES_ZH + r")", REPLY_LANGUAGE, standing=True),
    # Asked of the assistant, not said of the user ("I don't reply in English to my boss").
    _r("constraint", "en", r"(?<!\bI )(?<!\bI don't )(?<!\bI do not )(?<!\bI never )\b(?:reply|respond|answer|write back|talk to me|speak to me|communicate)(?: to me| me)? (?:only |always )?in (?P<value>" + _LANGUAGES_EN + r")\b", REPLY_LANGUAGE, standing=True),
    # "I prefer responses in Traditional Chinese": the language of every reply, not a taste.
    _r("constraint", "en", r"^I " + _EN_ADV + r"(?:prefer|like|want|need) (?:(?:your )?(?:responses|answers|replies)|you to (?:reply|answer|respond)) in (?P<value>(?:Traditional |Simplified )?(?:" + _LANGUAGES_EN + r"))\b", REPLY_LANGUAGE, standing=True),
    _r("constraint", "zh", r"(?:不超过|不要超过|别超过|控制在|少于|不多于|限制在|最多)(?P<value>\d+|[一二三四五六七八九十百千两]+)(?:个)?(?:字|词|行|句话?|段)", REPLY_LENGTH, standing=True),
    _r("constraint", "en", r"\b(?:answers?|repl(?:y|ies)|responses?|keep it|keep them)\b.*?\b(?:under|below|less than|fewer than|no more than|at most|max(?:imum)?(?: of)?|within|to) (?P<value>\d+) (?:words|characters|chars|sentences|lines|paragraphs)\b", REPLY_LENGTH, standing=True),
    # "No more than three bullet points, please": a bound on every answer, said alone.
    _r("constraint", "en", r"^(?:please )?(?:no more than|at most|max(?:imum)?(?: of)?) (?P<value>(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten) (?:bullet points|bullets|sentences|paragraphs|lines|words))\b(?: (?:per|in an?|in each|in every) (?:answer|reply|response))?(?:,? please)?$", REPLY_LENGTH, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:always )?(?:answer|reply|respond)(?: me| to me)? in (?P<value>(?:one|two|three|a single|a few|\d+) (?:sentence|sentences|line|lines|paragraph|paragraphs|words))\b", REPLY_LENGTH, standing=True),
    _r("constraint", "zh", r"(?:回复|回答|说话|解释|讲)[^，。]{0,6}?(?P<value>" + _ZH_STYLES + r")", REPLY_STYLE, standing=True),
    # 「我喜欢简单直接的回答」: two style words may stand together.
    _r("constraint", "zh", r"(?:喜欢|偏好|想要|希望)(?P<value>" + _ZH_STYLES + r")(?:[、和又而且]{0,2}(?:" + _ZH_STYLES + r"))?(?:一点|一些|些)?的?(?:回答|回复|答案|解释)", REPLY_STYLE, standing=True),
    # "Use metric units", 「用公制单位」: every quantity in the replies.
    _r("constraint", "en", r"^(?:please )?(?:always )?(?:use|give me|show me) (?:(?:all )?(?:the )?(?:measurements|units|quantities|temperatures|weights|distances) in )?(?:the )?(?P<value>metric|imperial|celsius|fahrenheit)(?: units| measurements| system)?\b", REPLY_UNITS, standing=True),
    _r("constraint", "en", r"^(?P<value>metric|imperial|celsius|fahrenheit)(?: units| measurements| system)?,? please$", REPLY_UNITS, standing=True),
    _r("constraint", "zh", r"^" + _ZH_REPLIES_ABOUT + r"(?:以后|请|都|温度|气温|距离|长度|重量)*(?:用|使用)(?P<value>公制|英制|摄氏度|华氏度)(?:单位)?(?:吧)?$", REPLY_UNITS, standing=True),
    # "I prefer metric units", "I think in Celsius": a preference, in the slot a rule asking for units
    # fills, so "Use imperial" later replaces it.
    _r("constraint", "en", r"^I " + _EN_ADV + r"(?:prefer|like|want|use|go by|think in) (?:the )?(?P<value>metric|imperial|celsius|fahrenheit)(?: units| measurements| system)?$", replace(REPLY_UNITS, memory_type="preference", templates={"zh": "偏好{value}", "en": "Prefers {value}"}), standing=True),
    # The currency of prices: 「涉及价格的时候请用人民币」, 「麻烦都换算成人民币给我」, "Please give prices in euros".
    _r("constraint", "zh", r"^(?!.*(?:别|不要|不用))" + _ZH_REPLIES_ABOUT + r"[^，。]*?(?:用|换算成|换成|以)(?P<value>人民币|美元|美金|欧元|日元|港币|英镑)(?:来算|来计算|为单位|给我|显示)?$", REPLY_CURRENCY, standing=True),
    _r("constraint", "en", r"^(?!.*\b(?:don't|do not|never)\b)(?=.*\b(?:prices?|costs?|money|amounts?|convert)\b).*?\b(?:in|to|use|using) (?P<value>US dollars|dollars|euros|yen|yuan|RMB|USD|EUR|GBP|CAD|AUD)\b.*$", REPLY_CURRENCY, standing=True),
    # The unit of temperatures, the clock of times, the unit of weights, said with what they are for.
    _r("constraint", "en", r"^(?!.*\b(?:don't|do not|never)\b)(?=.*\btemperatures?\b).*?\b(?P<value>celsius|fahrenheit)\b.*$", REPLY_UNITS, standing=True),
    _r("constraint", "en", r"^(?!.*\b(?:don't|do not|never)\b)(?!I " + _EN_ADV + r"(?:prefer|like|want|use) (?:the )?(?:24|12)-hour)(?=.*\btimes?\b).*?\b(?P<value>24-hour|12-hour)\b.*$", REPLY_TIME_FORMAT, standing=True),
    _r("constraint", "en", r"^(?!.*\b(?:don't|do not|never)\b)(?=.*\b(?:weights?|weigh)\b).*?\b(?P<value>stones? and pounds|pounds|lbs|kilograms|kilos|kg|stones?)\b.*$", REPLY_WEIGHT_UNIT, standing=True),
    _r("constraint", "zh", r"^(?!.*(?:别|不要))(?=.*(?:体重|单位))" + _ZH_REPLIES_ABOUT + r"[^，。]*?(?:用|以)(?P<value>斤|公斤|千克)(?:来算|为单位|来说)?$", REPLY_WEIGHT_UNIT, standing=True),
    # A clock, sources, spoilers: how every reply is written, each a slot of its own (core).
    _r("constraint", "en", r"^(?:please )?(?:always )?use (?:the )?(?P<value>24-hour|12-hour)(?: time| clock| format)?\b", REPLY_TIME_FORMAT, standing=True),
    # "Please format any citations in APA style", "when you cite stuff for me, use APA", 「参考文献用GB/T 7714格式」: the
    # style of every citation the replies give; the first style named is the one to use ("switch … from APA to MLA"
    # names the new one after "to").
    _r("constraint", "en", r"^(?!(?:I|my)\b(?!(?: (?:prefer|want|like|need|would like)|'d like)\b))(?=.*\b(?:cit(?:e|es|ing|ations?)|references?|bibliograph(?:y|ies)|sources)\b)(?:.*\bto |(?!.*\bto (?:APA|MLA|Chicago|IEEE|Harvard)\b))(?:(?!\b(?:not|no|never|instead of|rather than)\s).)*?\b(?P<value>APA|MLA|Chicago|IEEE|Harvard|Vancouver)\b", REPLY_CITATION_STYLE, standing=True),
    _r("constraint", "zh", r"^(?!我(?!的))(?=.*(?:引用|参考文献|文献))(?:(?!不要|别|不用|而不是).)*?(?P<value>(?i:APA|MLA|Chicago|IEEE|Harvard)|GB/T ?7714|国标)", REPLY_CITATION_STYLE, standing=True),
    _r("constraint", "zh", r"^" + _ZH_REPLIES_ABOUT + r"(?:以后|请|都|时间)*(?:用|使用)(?P<value>24小时制|12小时制)(?:吧)?$", REPLY_TIME_FORMAT, standing=True),
    # "I prefer 24-hour time": a preference in the slot "Use 24-hour time" fills (as the units above).
    _r("constraint", "en", r"^I " + _EN_ADV + r"(?:prefer|like|want|use) (?:the )?(?P<value>24-hour|12-hour)(?: time| clock| format)?$", replace(REPLY_TIME_FORMAT, memory_type="preference", templates={"zh": "偏好{value}", "en": "Prefers {value} time"}), standing=True),
    _r("constraint", "en", r"^(?:(?:from now on|going forward|in (?:the )?future),? )?(?:please )?(?:always )?(?:cite|include|give|add|list|link) (?:me )?(?:your |the )?(?P<value>sources)\b", REPLY_SOURCES, standing=True),
    _r("constraint", "zh", r"(?:附上|给出|标明|注明|列出|带上)(?:信息|资料|引用)?(?:的)?(?P<value>出处|来源)", REPLY_SOURCES, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:always )?(?:avoid|no|don't give me|do not give me|never give me|without) (?P<value>spoilers)\b", REPLY_SPOILERS, standing=True),
    _r("constraint", "zh", r"^(?:以后|请|千万)?(?:别|不要|不许|不准)(?:给我|跟我|帮我)?(?P<value>剧透)", REPLY_SPOILERS, standing=True),
    # "Explain things like I'm a beginner", 「把我当初学者来解释」: the level every explanation is pitched at.
    _r("constraint", "en", r"^(?:please )?(?:always )?explain (?:things|everything|stuff|concepts|it all)(?: to me)? (?:like|as if|as though) I(?:'m| am| was| were) (?:a |an )?(?P<value>complete beginner|beginner|newbie|novice|five|5|five-year-old|child|kid|expert)\b", REPLY_LEVEL, standing=True),
    _r("constraint", "zh", r"(?:把我当|当我是)成?(?:一个|个)?(?P<value>初学者|小白|新手|外行|专家|小孩)", REPLY_LEVEL, standing=True),
    # "I prefer short answers", "I like concise, direct answers": a kind of answer is a reply style.
    _r("constraint", "en", r"^I " + _EN_ADV + r"(?:prefer|like|love|want|appreciate) (?:more )?(?P<value>" + _EN_STYLES + r")(?:(?:,| and| but)+ (?:more )?(?:" + _EN_STYLES + r"))* (?:answers|replies|responses|explanations)\b", REPLY_STYLE, standing=True),
    # "Give me detailed answers from now on", "Please write shorter replies": the same slot, asked for.
    _r("constraint", "en", r"^(?:actually,? )?(?:please )?(?:always )?(?:give me|write me|write|send me|I(?:'d| would) like) (?:more |much more |a bit more )?(?P<value>" + _EN_STYLES + r")(?:(?:,| and)+ (?:more )?(?:" + _EN_STYLES + r"))* (?:answers|replies|responses|explanations|paragraphs)\b", REPLY_STYLE, standing=True),
    _r("constraint", "zh", r"^(?:请|要|尽量|再|都)?(?P<value>" + _ZH_STYLES + r")(?:一点|一些|些)?(?:吧)?$", REPLY_STYLE_AFTER_RULE, standing=True, after="reply-"),
    _r("constraint", "en", r"\b(?:be|keep (?:it|things|everything|(?:your )?(?:answers|replies|responses))|(?:answers?|responses?) (?:should be|that are))\b (?:more |a bit more |very |extra |really )?(?P<value>concise|brief|short|succinct|direct|formal|casual|detailed|thorough|friendly|blunt|straightforward)\b", REPLY_STYLE, standing=True),
    # "我不喜欢太长的回复", "回复别太长", "别太啰嗦", "I don't like long answers": a length rule said as a dislike.
    _r("constraint", "zh", r"(?:不喜欢|讨厌|受不了|别|不要|不用|不必)(?:太|过于|那么|很)?(?P<value>长|啰嗦|啰唆|冗长|长篇大论)(?:的)?(?:回复|回答|答案|解释)?(?:了|啊|哦)?$", REPLY_STYLE, standing=True),
    _r("constraint", "zh", r"(?:回复|回答|答案|解释)(?:别|不要|不用|不必)(?:太|过于|那么)?(?P<value>长|啰嗦|啰唆|冗长)", REPLY_STYLE, standing=True),
    _r("constraint", "en", r"\b(?:don't|do not|never) (?:like|want|need|enjoy|give me|write) (?:\w+ )?(?P<value>long|lengthy|wordy|verbose|rambling)(?: \w+)? (?:answers|replies|responses|explanations)\b", REPLY_STYLE, standing=True),
    _r("constraint", "en", r"\b(?:don't|do not|never) make (?:your |the )?(?:answers|replies|responses) (?:too |so |very )?(?P<value>long|lengthy|wordy|verbose)\b", REPLY_STYLE, standing=True),
    _r("constraint", "zh", r"(?:不要|别|不用|少|禁止|不许|不准)(?:在回复里|在回答里|在回复中)?(?:用|加|带|放|使用|发)?(?:任何)?(?P<value>表情符号|表情包|表情|emoji|颜文字)", REPLY_EMOJI, standing=True),
    _r("constraint", "zh", r"^(?:我)?(?:不喜欢|讨厌|受不了|很烦)(?:你)?(?:回复里|回答里)?(?:用|加|发|带)(?:太多|那么多|很多)?(?:的)?(?P<value>表情符号|表情包|表情|emoji|颜文字)", REPLY_EMOJI, standing=True),
    # "Emojis are fine now", 「可以用表情了」: the rule against them is over (before the rule itself is read).
    _r("constraint", "en", r"^(?:emojis? (?:are|is) (?:fine|ok|okay|allowed|welcome)|(?:you can|feel free to|go ahead and) (?:use|add) emojis?)(?: now| again)?\b", slot_retirement("constraint", "reply-emoji", if_held=True), standing=True),
    _r("constraint", "zh", r"^(?:现在|以后)?(?:可以|能)(?:用|加|发)(?:表情符号|表情|emoji)了?$|^(?:表情符号|表情|emoji)(?:可以用|能用|没关系)了?$", slot_retirement("constraint", "reply-emoji", if_held=True), standing=True),
    # A language allowed now ("English is fine now", 「现在可以用英文回复了」) is the reply language, not a rule lifted.
    _r("constraint", "en", r"^(?:actually,? )?(?:replying in |answers in |replies in )?(?P<value>" + _LANGUAGES_EN + r") (?:is|are) (?:fine|ok|okay|good) (?:now|from now on)$", REPLY_LANGUAGE, standing=True),
    _r("constraint", "zh", r"^(?:现在|以后)(?:可以|能)?(?:用)?(?P<value>" + _LANGUAGES_ZH + r")(?:回复|回答)?(?:也)?(?:可以|行|没问题)?了$", REPLY_LANGUAGE, standing=True),
    # 「以后可以说详细点」: how every reply is said from now on (「你说详细点」 alone asks it of this one).
    _r("constraint", "zh", r"^(?:以后|今后)(?:可以|请|你|都)*(?:说|讲|写)(?:得)?(?P<value>详细|简单|简短|简洁|通俗)(?:一?点|些|一些)$", REPLY_STYLE, standing=True),
    # A standing rule lifted: "You can mention my ex again", "Spoilers are fine now", 「可以剧透了」 end the one rule
    # held (`rule-…` or `reply-…`) that names what is allowed again, and nothing when no rule does.
    _r("constraint", "en", r"^(?:you can|you may|feel free to|it's (?:ok|okay|fine) to|go ahead and) (?:\w+ )?(?:mention|bring up|suggest|recommend|talk about|use|include|give me|send me) (?:my |me )?(?P<item>[\w' -]{2,30}?)(?: again| now| to me)*(?:,.*)?$", named_retirement("rule-", "reply-"), standing=True),
    _r("constraint", "en", r"^(?P<item>(?!(?:it|that|this|everything|anything|all|things)\b)[\w' -]{3,30}?) (?:is|are) (?:fine|ok|okay|allowed) (?:now|again|with me)\b", named_retirement("rule-", "reply-"), standing=True),
    _r("constraint", "zh", r"^(?:以后|现在)?(?:可以|能)(?:给我|跟我|帮我)?(?P<item>[^，。]{2,8}?)了$", named_retirement("rule-", "reply-"), standing=True),
    # What is allowed named first: 「辣的还是可以推荐的」, 「辣的也可以推荐」, 「剧透可以说了」.
    _r("constraint", "zh", r"^(?:其实|现在|以后)?(?P<item>(?!这|那|它|都|什么|我)[^，。]{2,8}?)(?:还是|也|又|现在|以后|其实)*(?:可以|能)(?:给我|跟我|帮我)?(?:推荐|提|说|聊|用|发|加)(?:的|了|啦|吧)*$", named_retirement("rule-", "reply-"), standing=True),
    # A standing rule no longer needed: 「不用先给结论了」, 「不用附英文翻译了」, "You don't need to add English
    # translations anymore" end the one rule naming what it asked for (the object, after its verb).
    _r("constraint", "zh", r"^(?:以后|现在)?(?:回答|回复|代码|写代码|代码里)?(?:都)?(?:不用|不需要|不必|无需|用不着)(?:再)?(?:每次)?(?:都)?(?:先)?(?:附上?|加上?|给我?|带上?|写|提供|列出)?(?P<item>[^，。]{2,10}?)了$", named_retirement("rule-", "reply-"), standing=True),
    _r("constraint", "en", r"^(?:you (?:don't|do not) (?:need|have) to|no need to|you can stop) (?:always )?(?:add|include|give me|use|using|start with|put|putting|write|writing|end with|list|cite|citing|show|mention)(?:ing)? (?:the |a |an |any )?(?P<item>[\w' -]{3,40}?)(?: anymore| any more| from now on| now| first)*$", named_retirement("rule-", "reply-"), standing=True),
    _r("constraint", "en", r"\b(?:don't|do not|never|no|stop|avoid|didn't|wouldn't)(?: use| using| add| adding| include| including| put)? (?:any |so many |too many |as many )?(?P<value>emojis?)\b", REPLY_EMOJI, standing=True),
    # "Don't use so many exclamation marks", "Stop using jargon": something kept out of every reply, named.
    _r("constraint", "en", r"^(?:please )?(?:don't|do not|never|stop|avoid)(?: using| use)? (?:so many |too many |any |as many |all those |all the )?(?:exclamation (?:marks|points)|em[- ]dashes|slang|abbreviations|acronyms|headers|headings|bold text|rhetorical questions|filler phrases|cliches|clichés)(?: so much| anymore| please| in (?:your )?(?:answers|replies|responses))*$", standing_rule, standing=True),
    _r("constraint", "en", r"^I (?:(?:don't|do not) (?:like|love|want)|hate|dislike)(?: it)?(?: when)? you (?:(?:use|using|add|adding|put|putting) )?(?:so many |too many |lots of |any )?(?P<value>emojis?)\b", REPLY_EMOJI, standing=True),
    # Type hints in the Python written for the user, however asked for.
    _r("constraint", "en", r"^(?!.*\b(?:don't|do not|no|never|stop|without)\b)(?=.*\bpython\b).*\b(?P<value>type hints|type annotations)\b.*$", REPLY_TYPE_HINTS, standing=True),
    _r("constraint", "zh", r"^(?!.*(?:不要|别|不用))(?=.*(?:Python|python|代码))[^，。]*(?P<value>类型注解|类型提示)[^，。]*$", REPLY_TYPE_HINTS, standing=True),
    # How-to answers as numbered steps, and no closing summary: one wording each, whatever words asked for it.
    # 「推荐的时候别超过三个选项」, 「给我推荐东西的时候最多列三个」, "When you recommend things, list at most 3".
    _r("constraint", "zh", r"^(?:以后)?(?:给我)?推荐(?:东西|选项)?(?:给我)?(?:的时候|时)?(?:最多|别超过|不要超过|不超过|只)(?:列|给)?(?P<value>\d{1,2}|[一二两三四五六七八九十])个(?:选项|就够了|就行|就好|以内)*$", REPLY_OPTIONS, standing=True),
    _r("constraint", "en", r"^(?:when you recommend (?:things|stuff)?,? )?(?:please )?(?:list|give me|suggest) (?:at most|no more than|only) (?P<value>\d{1,2}|two|three|four|five) (?:options|choices|recommendations|suggestions|things)(?: when (?:you )?recommend(?:ing)? (?:things|stuff))?$", REPLY_OPTIONS, standing=True),
    _r("constraint", "zh", r"^回复里用(?P<value>你)不用您$", REPLY_PLAIN_YOU, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:don't|do not|never|no|avoid)(?: use| using)? (?P<value>em[- ]?dashes)(?: in (?:your )?(?:writing|replies|answers|responses))?(?:,? please)?$", REPLY_NO_EM_DASHES, standing=True),
    _r("constraint", "en", r"^I'd (?:rather|prefer) (?:you )?(?:avoid|not use|skip) (?P<value>em[- ]?dashes)\b.*$", REPLY_NO_EM_DASHES, standing=True),
    _r("constraint", "en", r"^(?!.*\b(?:don't|do not|never)\b)(?=.*\b(?:variables?|variable names|names)\b)(?=.*\bcode\b|.*\bvariables?\b).*?\b(?P<value>snake_case|snake case|camelCase|camel case|PascalCase|Pascal case|kebab-case)(?!\w).*$", REPLY_NAMING_CASE, standing=True),
    _r("constraint", "en", r"^(?!.*\b(?:don't|do not|never)\b)(?=.*\bdates?\b).*?\b(?P<value>DD/MM/YYYY|MM/DD/YYYY|YYYY-MM-DD|DD\.MM\.YYYY|day/month/year|month/day/year)(?!\w).*$", REPLY_DATE_FORMAT, standing=True),
    _r("constraint", "zh", r"^(?!.*(?:别用|不要用|不用))(?=.*日期).*?(?P<value>DD/MM/YYYY|MM/DD/YYYY|YYYY-MM-DD|年-月-日|日/月/年).*$", REPLY_DATE_FORMAT, standing=True),
    _r("constraint", "en", r"^(?!.*\b(?:don't|do not|never)\b)(?=.*\b(?:acronyms?|abbreviations?)\b)(?=.*\b(?:spell (?:them |it )?out|write out|full (?:term|form|name)|expand)\b).*\b(?P<value>first time)\b.*$", REPLY_ACRONYMS, standing=True),
    _r("constraint", "zh", r"^(?!.*(?:别写全称|不用写全称))(?=.*(?:缩写|缩略语))(?=.*(?:全称|写全)).*?(?P<value>缩写|缩略语).*$", REPLY_ACRONYMS, standing=True),
    _r("constraint", "zh", r"^(?!.*(?:别用|不要用|不用)阿拉伯数字)(?=.*数字).*?(?P<value>阿拉伯数字|1、2、3|123这种).*$", REPLY_NUMERALS, standing=True),
    _r("constraint", "en", r"^(?!.*\b(?:don't|do not|no|never|stop|without)\b).*\b(?P<value>numbered steps|numbered step-by-step)\b.*$", REPLY_STEPS, standing=True),
    _r("constraint", "zh", r"^(?!.*(?:不要|别|不用))(?=.*(?:步骤|怎么做|操作|教程))[^，。]*(?P<value>编号|分步骤列出|一步一步列出|列出步骤)[^，。]*$", REPLY_STEPS, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:don't|do not|never|no need to|skip|stop|I don't need|I don't want|leave out|drop)\b.*\b(?P<value>summary|summaries|recap|recaps|tl;?dr|wrap-up)\b.*$", REPLY_NO_SUMMARY, standing=True),
    _r("constraint", "zh", r"^(?:(?:回答|回复)(?:的)?(?:最后|结尾|末尾)?)?(?:请)?(?:不要|别|不用|无需|不必)(?:再)?(?:在)?(?:回答|回复)?(?:的)?(?:最后|结尾|末尾)?(?:再)?(?:加|做|写|来)?(?:个|一个|一段)?(?P<value>总结|小结)(?:了)?$", REPLY_NO_SUMMARY, standing=True),
    _r("constraint", "zh", r"(?:用|使用|以)(?P<value>markdown|列表|表格|编号列表|代码块)", REPLY_FORMAT, standing=True),
    _r("constraint", "zh", r"(?P<value>分点|列点|分条)(?:回答|列出|说明)", REPLY_FORMAT, standing=True),
    _r("constraint", "en", r"\buse (?P<value>bullet points|bullets|numbered lists|tables|markdown|headings|code blocks)\b", REPLY_FORMAT, standing=True),
    # "No more bullet points", "Just write normally": the format asked for before is over (its slot, the new word).
    _r("constraint", "en", r"^(?:please )?(?:no (?:more )?|stop (?:using |with )?(?:the )?|enough (?:with )?(?:the )?|(?:drop|ditch) the )(?P<value>bullet points|bullets|numbered lists|tables|markdown|headings)\b", REPLY_FORMAT, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:just )?(?:write|answer|reply|respond)(?: to me)? (?P<value>normally|in (?:plain )?(?:paragraphs|prose|plain text|full sentences))(?: (?:again|from now on|please))*$", REPLY_FORMAT, standing=True),
    _r("constraint", "en", r"\bformat (?:your )?(?:answers|replies|responses) (?:in|as|with) (?P<value>\w+(?: \w+)?)", REPLY_FORMAT, standing=True),
    # "Actually, paragraphs are better for long explanations": the format preferred now.
    _r("constraint", "en", r"^(?:plain |full )?(?P<value>paragraphs|prose|plain text|full sentences|tables|bullet points|bullets|numbered lists) (?:are|is|work) (?:better|fine|best|preferred)\b", REPLY_FORMAT, standing=True),
    _r("constraint", "en", r"\b(?:answer|reply|respond|write)(?: to me)? (?:in|with|using|as) (?P<value>bullet points|bullets|numbered lists|tables|a table|markdown|headings)\b", REPLY_FORMAT, standing=True),
    _r("constraint", "en", r"^I " + _EN_ADV + r"(?:prefer|like|want|need) (?:my |your |the )?(?:answers|replies|responses)(?: to be)? (?:formatted |written |laid out )?(?:in|as|with|using) (?P<value>bullet points|bullets|numbered lists|tables|a table|markdown|headings|plain text|paragraphs)\b", REPLY_FORMAT, standing=True),
    _r("constraint", "zh", _ZH_STANDING_FIRST + r"[^，。]*?(?:代码|示例|例子|样例)[^，。]{0,10}?(?:用|使用)(?P<value>" + _PROGRAMMING + r")", CODE_LANGUAGE, standing=True),
    # 「给代码示例的时候用Go」: the standing word (的时候) after the code word.
    _r("constraint", "zh", r"(?:代码|示例|例子|样例)[^，。]{0,10}?(?:的时候|时)[^，。]{0,4}?(?:用|使用)(?P<value>" + _PROGRAMMING + r")", CODE_LANGUAGE, standing=True),
    _r("constraint", "en", r"^(?=.*\b" + _EN_STANDING + r"|.*\bwhen you (?:show|write|give)).*\b(?:code|examples?|snippets?)\b.*?\b(?:in|use|using) (?P<value>" + _PROGRAMMING + r")(?!\w)", CODE_LANGUAGE, standing=True),
    # Code examples in general, no task named: 「代码示例请用TypeScript」, "Keep code examples in Python 3",
    # "Use Python for code examples" (「用TypeScript写一个快排」 and "Write a quicksort in Rust" are one-offs).
    _r("constraint", "zh", r"^(?:代码示例|示例代码|代码例子|代码样例|代码|示例|例子|样例)(?:请|都|一律|统一|最好)*(?:用|使用)(?P<value>" + _PROGRAMMING + r")(?:写|来写)?(?:吧|就行|就好)?$", CODE_LANGUAGE, standing=True),
    _r("constraint", "en", r"^(?:please )?keep (?:all |your )?(?:code examples|code samples|code snippets|examples|snippets|code) in (?P<value>" + _PROGRAMMING + r")(?!\w)", CODE_LANGUAGE, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:always )?use (?P<value>" + _PROGRAMMING + r") for (?:all |your |any )?(?:code examples|code samples|code snippets|examples|snippets|code)\b", CODE_LANGUAGE, standing=True),
    # 别 as "don't", not inside 特别 / 分别 / 区别 / 性别 / 别人… (「我怀孕的时候特别想吃酸的」 is no rule).
    _r("constraint", "zh", _ZH_STANDING_FIRST + r".*(?:提醒我|帮我" + _NOT_MY_KIN + r"|(?<![特分区告类性级差识个])别(?!人)|不要|避开|记得|给我" + _NOT_MY_KIN + r"|都要|请|要先|先给|先说|优先|考虑|只推荐|只给我|直接回答|直接说|直接给|总结|附上|加上|列出|注明|标注|先把|先用|尽量用|尽量给).*$", standing_rule, standing=True),
    # 「不要给我推荐任何需要付费的东西」: "any" makes it a rule for every recommendation.
    _r("constraint", "zh", r"^(?:请)?(?:不要|别)(?:再)?(?:给我|帮我|向我)?推荐(?:任何|什么)[^，。]+$", standing_rule, standing=True),
    # 「别再给我推荐健身房了」: "again" makes it a rule for every recommendation to come.
    _r("constraint", "zh", r"^(?:请|以后)?(?:别|不要|不用)再(?:给我|帮我|向我|跟我)?(?:推荐|安排)(?!了?$)[^，。]+$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:stop (?:recommending|suggesting)|(?:don't|do not) (?:recommend|suggest) (?:.+ )?again\b)", standing_rule, standing=True),
    # 「不要用太多专业术语」: jargon is a rule for every reply, said without 以后 or 回答.
    _r("constraint", "zh", r"^(?:请|以后|尽量)?(?:不要|别|少)(?:用|说)(?:太多|那么多)?(?:专业|英文)?(?:术语|黑话)", standing_rule, standing=True),
    # 「技术术语可以保留英文」: an exception every reply in another language keeps.
    _r("constraint", "zh", r"^(?:以后)?(?:技术|专业|编程)?(?P<value>术语|名词|专有名词)(?:可以|就|都|请)*(?:(?:保留|用|写)(?:英文|英语|原文)|(?:不用|不要|别|不必)(?:翻译|翻)(?:成|为)?(?:中文)?)(?:就行|就好|吧|了)?$", JARGON_UNTRANSLATED, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:always )?(?:keep|leave) (?:the )?(?P<value>technical terms|tech terms|jargon|terminology) (?:in english|untranslated|as they are|in the original)(?: please)?$", JARGON_UNTRANSLATED, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:don't|do not|never) translate (?:the )?(?P<value>technical terms|tech terms|jargon|terminology)(?: (?:in)?to chinese)?(?: please)?$", JARGON_UNTRANSLATED, standing=True),
    # 「代码请加注释」: what all the assistant's code should carry.
    _r("constraint", "zh", r"^(?:以后)?(?:写的?|给的?|你的)?(?:代码|程序)(?:里|中)?(?:请|都|要|记得|一定要|尽量)*(?:不要|别|不用)?(?:多加|加上?|带上|写上?)(?:点|些|一些|任何)?(?:中文|英文|详细的?)?注释(?:了|吧)?$", standing_rule, standing=True),
    # 「解释代码的时候多加注释」: what every explanation of a kind should carry.
    _r("constraint", "zh", r"^(?:解释|写|给)(?:代码|程序|示例)[^，。]{0,4}?(?:的时候|时)[^，。]{0,2}?(?:多加|加上|带上|附上)[^，。]+$", standing_rule, standing=True),
    # How the user does not want a reply to open or close, quoted: 「不要每次都说"好的"开头」, 'Don't start with "Great
    # question"' (every reply's opening, a standing rule however it is said).
    _r("constraint", "zh", r"^(?:以后|请)?(?:不要|别)(?:每次)?(?:都)?(?:用|说|以)[\"“「'][^\"”」']{1,12}[\"”」'](?:开头|结尾|来开头|来结尾)$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:don't|do not|never|stop) (?:start(?:ing)?|begin(?:ning)?|open(?:ing)?|end(?:ing)?)(?: (?:your |every )?(?:answers?|replies|responses|messages?))? (?:with|by saying) [\"“'][^\"”']{1,40}[\"”']$", standing_rule, standing=True),
    # 「回答先给结论再解释」, 「回复的时候多用例子」: what every reply should do, said without 以后.
    _r("constraint", "zh", r"^(?:你的)?(?:回答|回复)(?:里|中|时|的时候)?(?:都|尽量|请|最好)*(?:先给结论|先说结论|先给答案|先说重点|多用|多举|多给|多加|少用|少说)[^，。]*$", standing_rule, standing=True),
    # 「回答里别用英文术语」: a rule for every reply, said without 以后.
    # 「回答里不要用感叹号」, 「回复不要中英混杂」, 「别在回答里掺英文」: what a reply must leave out.
    _r("constraint", "zh", r"^(?:(?:你的)?(?:回答|回复)(?:里|中|时|的时候)?(?:都|尽量)?(?:别|不要|不用|少|尽量不要)(?:再)?|(?:别|不要|不用)在(?:你的)?(?:回答|回复)(?:里|中))(?:(?:用|带|加|出现|说|提|夹杂|夹|掺|混用|混)[^，。]+|中英(?:文)?(?:混杂|夹杂|混用))$", standing_rule, standing=True),
    # 「跟我讲田地面积都换成亩」, 「以后跟我说食物热量的时候用千焦」, 「土地面积一律用亩来说」, 「热量单位请统一换成kJ」: the unit
    # or form the replies give something in.
    _r("constraint", "zh", r"^(?:以后)?(?:你)?(?:跟我|给我|对我|和我)(?:讲|说|聊|写|算|提)[^，。]{0,10}?(?:(?:都|一律|全部?|统一)(?:换成|换算成|改成|用)|的时候(?:都|一律|统一)?用)[^，。]{1,8}$"
    r"|^(?:以后)?[^，。我]{1,8}?单位(?:请|麻烦)?(?:都|一律|全部?|统一)?(?:换成|换算成|改成|用)[^，。]{1,8}$|^(?:以后)?[^，。我]{1,8}?(?:一律|统一)(?:用|按|换算成)[^，。]{1,6}?(?:来说|来算|来写|来表示|表示|计算)$", standing_rule, standing=True),
    # "Indent with tabs, not spaces", "Use 4 spaces from now on", 「代码缩进用4个空格」: the first of the two not said
    # to be avoided. Not the user's own ("I use tabs at work").
    _r("constraint", "en", r"^(?!(?:I|I'm|my|we)\b)(?=.*\b(?:indent\w*|code|snippets?|tabs)\b|.*\b(?:use|with) (?:\d|two|four) spaces\b)(?:(?!\b(?:not|no|never|instead of|rather than|over)\s).)*?\b(?P<value>tabs|(?:\d|two|four) spaces)\b", CODE_INDENTATION, standing=True),
    _r("constraint", "zh", r"^(?!我(?!的代码))(?=.*缩进)(?:(?!不要|别|不用|而不是).)*?(?P<value>tab|制表符|[248两四]个?空格)", CODE_INDENTATION, standing=True),
    # Not the user's own habit said with "always" ("I always use dark mode": a liking, read by the preference rules).
    _r("constraint", "en", r"^(?!I (?:\w+ )?(?:always|usually) (?:use|add|include|mention|avoid|suggest|recommend)\b)(?!I (?:always|usually) \w+ (?:it|them|my)\b).*\b" + _EN_STANDING + r"\b.*\b(?:remind me|include|don't|do not|avoid|use|give me|tell me|ask me|warn me|add|start with|mention|suggest|recommend)\b.*$", standing_rule, standing=True),
    # "Use 4 spaces for indentation from now on": an imperative opening the sentence, its standing word after it.
    _r("constraint", "en", r"^(?:.*\b(?:remind me|include|don't|avoid|give me|warn me)|(?:please )?(?:use|add|mention|put|write|keep|start with|end with))\b.*\b" + _EN_STANDING + r"\b.*$", standing_rule, standing=True),
    # What the replies give, asked of all of them without a standing word: "Please write all code examples in Rust",
    # "Dates should be in ISO format". Not the user's own ("My emails should be short"), nor one answer ("Write a
    # summary of this"). ("When you draft emails for me, sign them off with…" is left unread: kept in its words, it
    # stood beside the same rule said with "always" in three shipped bursts.)
    _r("constraint", "en", r"^(?:please |pls |kindly )?(?:format|write|give|put|keep|cite|sign|end|start|show|list|number|label|present|express|round|spell|convert)\b(?=.*\b(?:all|any|every|each|your) (?:[\w-]+ )?" + _EN_REPLY_OUTPUTS + r"\b).+$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:(?:all|any|every|each|the) )?(?!my\b|our\b|his\b|her\b|their\b)(?:[\w-]+ )?" + _EN_REPLY_OUTPUTS + r" (?:should|must|need to|have to) (?:always )?(?:be|follow|use|include|come|start|end|stay|have)\b.+$", standing_rule, standing=True),
    _r("constraint", "en", r"^I'd rather you (?:didn't|not|never) .+$", standing_rule, standing=True),
    # "Keep meal suggestions cheap", "Only suggest cheap restaurants": how every suggestion of a kind is made.
    _r("constraint", "en", r"^(?:please )?(?:always )?keep (?:the |your |my )?(?:[\w-]+ )?(?:suggestions|recommendations|picks|ideas|recipes|meals|restaurants)(?: you (?:give|suggest|recommend)(?: me)?)? (?:cheap|affordable|inexpensive|budget-friendly|on a budget|simple|easy|quick|healthy|kid-friendly|local|nearby|under [$€£¥]?\d[\d,.]*k?)\b.*$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?only (?:ever )?(?:suggest|recommend) (?!(?:it|that|this|one|them)\b).+$", standing_rule, standing=True),
    # "…so no alcohol or raw fish suggestions please": what every suggestion must leave out.
    _r("constraint", "en", r"^(?:so )?(?:please )?no (?P<value>[\w ,-]+?) (?:suggestions|recommendations|recipes)(?: please)?$", standing_rule, standing=True),
    # How the assistant talks, said without "always": "Don't sugarcoat things", "Stop apologizing so much",
    # "Please don't give me medical advice" (a closed list: "don't give me the answer yet" is a one-off).
    _r("constraint", "en", r"^(?:please )?(?:don't|do not|stop|never|no need to) (?:sugarcoat(?:ing)?|apologi[sz](?:e|ing)|say(?:ing)? sorry|lectur(?:e|ing)|moraliz(?:e|ing)|hedg(?:e|ing)|rambl(?:e|ing)|repeat(?:ing)? yourself|over-?explain(?:ing)?|be(?:ing)? so formal|flatter(?:ing)? me|tell(?:ing)? me what I want to hear)\b.*$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:don't|do not|never) (?:ever )?(?:give|offer|provide|send) me (?:any )?(?:[\w-]+ )?(?:advice|lectures|disclaimers|warnings|motivational quotes|pep talks)\b.*$", standing_rule, standing=True),
    # "When I ask for code, give me the full file", "If I ask about restaurants, remember I'm vegetarian":
    # what to do every time the user asks for something.
    _r("constraint", "en", r"^(?:when(?:ever)?|if|every time) I (?:ask|want|need|say|send|request|share|paste)\b[^,]*, (?:please )?(?:just )?(?:give|show|send|tell|use|include|reply|answer|write|start|keep|add|remind|remember|assume|skip|don't|do not|make|avoid|suggest|recommend|stick|explain|list)\b.+$", standing_rule, standing=True),
    # "When you recommend books, prefer ones in Chinese", "When you recommend restaurants, keep it cheap": how every
    # recommendation of a kind is made.
    _r("constraint", "en", r"^(?:when(?:ever)?|every time) you (?:recommend|suggest|plan|book|pick|choose) [^,]+, (?:please )?(?:always )?(?:prefer|choose|pick|go for|stick to|avoid|skip|leave out|keep (?:it|them)|make sure|don't|do not|remember) .+$", standing_rule, standing=True),
    # "For any plan you write me, put an estimated duration next to every item", "Add how long each step takes whenever
    # you break a task down": what every answer of a kind carries. Not "When you give me facts, include where they come
    # from": read, it stood beside "Always cite your sources" (`reply-sources`), two rules for one (b35-en-reply-cite).
    _r("constraint", "en", r"^for (?:any|every|each|all) [^,]+ you (?:give|write|send|show|make|draft|suggest|recommend)\b[^,]*, (?:please )?(?:always )?" + _EN_IMPERATIVE + r" .+$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:always )?" + _EN_IMPERATIVE + r" .+\b(?:whenever|every time|each time) you\b.+$", standing_rule, standing=True),
    # A reminder every day / night / week is a standing rule (「每天晚上睡觉前提醒我吃药」); "every day"
    # is no standing word by itself: 「我每天都要喝一杯美式」 and "Every day I use Excel" are habits.
    _r("constraint", "zh", r"^(?:以后|从现在开始)?每(?:天|晚|周|个?星期|个?月)[^，。]*?提醒我.+$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?=.*\bremind me\b).*\bevery (?:day|night|morning|evening|week|weekend|month|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b.*$", standing_rule, standing=True),
    # A conditional reminder (「下雨天提醒我带伞」, 「要是下雨就提醒我带伞」, "If it rains, remind me to …"):
    # a rule for every time the condition holds; one bound to a day (「明天下雨的话…」) is short-term
    # (`filters.window_reminder_reason`).
    _r("constraint", "zh", r"^(?:(?:如果|要是|假如|万一|一旦)(?!我)[^，。]{1,12}?|(?!我)[^，。]{1,12}?的话|(?:下雨|下雪|雨|雪|阴|大风|降温|高温|刮风)天)[，,]?(?:就|请|都)?提醒我.+$", standing_rule, standing=True),
    # A condition of the world (it, there, the …), the request after its comma: "If I forget, remind me
    # to call her" is a request of the moment, "When I was a kid my mom would remind me…" no rule.
    _r("constraint", "en", r"^(?:if|when) (?:it|there|the)\b[^,.]{1,40}?(?:,| then) (?:please )?(?:remind|warn) me (?:to|about|that)\b.+$", standing_rule, standing=True),
    # "Don't mention my ex", 「不要提我前任」: a painful topic of the user's own, closed list (a standing
    # rule without "ever": "Don't mention it" answers a thank-you, "don't mention my name in the email" is a task).
    _r("constraint", "en", r"^(?:please )?(?:don't|do not) (?:ever )?(?:mention|bring up|talk about|ask (?:me )?about) (?:my|the) (?:ex|ex-wife|ex-husband|ex-boyfriend|ex-girlfriend|ex-partner|divorce|weight|miscarriage|late (?:father|mother|dad|mom|husband|wife))\b(?: (?:again|anymore|any more|please|ever|to me|around me))*$", standing_rule, standing=True),
    _r("constraint", "zh", r"^(?:以后|请|千万)?(?:不要|别|不许)(?:再)?(?:提|提起|提到|问|聊)(?:我的?)?(?:前任|前妻|前夫|前男友|前女友|离婚|体重|流产)(?:的事)?(?:了)?$", standing_rule, standing=True),
    # Any topic, said as one ("别跟我聊减肥的话题") or with "with me" ("Don't bring up dieting with me").
    _r("constraint", "zh", r"^(?:以后|请|千万)?(?:不要|别|不许)(?:再)?(?:跟我|和我|同我)?(?:聊|谈|提|讨论|说)(?:起)?(?P<item>[^，。]{1,10}?)(?:的|相关的|有关的)?话题(?:了)?$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:don't|do not|never) (?:ever )?(?:bring up|talk about|mention|discuss) (?P<item>(?!(?:that|this|these|those|it|them|him|her)\b)[\w' -]{3,30}?) (?:with|to|around) me\b(?: (?:again|anymore|please|ever))*$", standing_rule, standing=True),
    # What every answer about a kind of thing must follow, said with its condition: 「我问菜谱的时候，都按素食来」 (as
    # "Whenever I ask about recipes, …"), 「如果我问菜谱，都按素食来」, 「推荐餐厅的话人均200以内就行」. The asking is the
    # user's (我问) or the reply the assistant's (推荐, 写…): 「我找工作的时候都用BOSS直聘」 is a habit, 「…，压力很大」 no rule.
    _r("constraint", "zh", r"^(?:如果|要是|以后|今后|每次)*(?:我(?:问(?:你)?|让你|请你|找你)|(?:你)?(?:给我|帮我)?(?:推荐|介绍|安排|规划|写|解释|做))(?P<item>[^，。]{1,8}?)(?:(?:的时候|的话)，?|，)(?P<rule>[^，。]*(?:都|就|按|用|给|要|别|不要|只|优先|控制|以内|不超过|别超过|记得|请|尽量)[^，。]*)$", standing_rule, standing=True),
    # What every recommendation of a kind must heed: 「推荐菜的时候注意少油少盐」 (the English form is below).
    _r("constraint", "zh", r"^(?:以后|每次)?(?:给我|帮我)?(?:推荐|介绍|安排|规划)(?P<item>[^，。]{1,8}?)的时候(?:请|要|都)?(?:注意|记得|考虑|优先|避开|避免|别|不要|尽量|多|少)[^，。]+$", standing_rule, standing=True),
    # What a condition or a trait asks of every reply, right after it: "I'm colorblind, so don't rely on colors in
    # charts", 「我听力不好，所以别发语音」, 「我晕车，出去玩别安排太远的自驾」, "I get seasick easily, so no boat trips".
    _r("constraint", "en", r"^(?:so |which means |and )?(?:please )?(?:don't|do not|never|avoid) (?:rely on|use|send|give me|suggest|recommend|show me|plan|book) .+$|^(?:so )?no (?!(?:problem|problems|worries|worry|big deal|way|idea|thanks|rush|pressure|offense|doubt|wonder|matter)\b)[\w' -]{2,30}(?: for me)?$", standing_rule, standing=True, after=("health-", "trait-", "goal-weight-loss", "medication-")),
    _r("constraint", "zh", r"^(?:所以|因此)?(?:请)?[^，。]{0,6}?(?:别|不要|尽量别|尽量不要)(?:只)?(?:用|发|给我|推荐|依赖|安排|订)[^，。]+$", standing_rule, standing=True, after=("health-", "trait-", "goal-weight-loss")),
    # Something to keep out of every recommendation, named by what it holds: "Please don't recommend anything with
    # alcohol", 「别给我推荐带酒精的东西」 (what is in a dish or a drink is no one-off, unlike "don't recommend that one").
    _r("constraint", "en", r"^(?:please )?(?:don't|do not|never) (?:ever )?(?:recommend|suggest|offer|give) (?:me )?(?:anything|any (?:food|foods|drinks?|dishes|recipes|snacks|meals)|foods?|drinks?|dishes|recipes|snacks|meals|restaurants) (?:with|containing|that (?:has|have|contains?)) (?:any )?(?:alcohol|pork|beef|meat|nuts|peanuts|tree nuts|shellfish|seafood|gluten|dairy|eggs|sugar|caffeine)\b.*$", standing_rule, standing=True),
    _r("constraint", "zh", r"^(?:以后|请|千万)?(?:不要|别|不许)(?:再)?(?:给我)?推荐(?:任何)?(?:带|含|有)(?:酒精?|猪肉|牛肉|花生|坚果|海鲜|麸质|乳制品|咖啡因)的(?:东西|食物|菜|饮料|饮品|零食)?(?:了)?$", standing_rule, standing=True),
    # 「别跟我提减肥的事」, 「不要跟我提我前任」: a topic kept out of talk with the user, said with 跟我 (as "with me" above).
    _r("constraint", "zh", r"^(?:以后|请|千万)?(?:不要|别|不许)(?:再)?(?:跟我|和我|同我)(?:提|提起|提到|聊|谈|讨论|说)(?:起)?(?P<item>(?!这|那|它|他|她)[^，。]{1,10}?)(?:的事(?:情)?|相关的事)?(?:了)?$", standing_rule, standing=True),
    # "I hate it when you apologize too much": what the assistant does that the user wants gone from every reply.
    _r("constraint", "en", r"^I " + _EN_ADV + r"(?:hate|dislike|can't stand|don't like|do not like) (?:it )?when you (?!(?:do|say) (?:that|this|it)\b)(?P<item>[\w' ,-]{3,50})$", standing_rule, standing=True),
    # "(Can you) remind me that I'm vegan when suggesting recipes": what every suggestion of a kind must heed.
    _r("constraint", "en", r"^(?:please )?(?:always )?remind me (?:that )?I(?:'m| am) [\w -]{3,30}? when(?:ever)? (?:you(?:'re| are)? )?(?:suggest|recommend|plan|pick|choos|giv|find)\w* .+$", standing_rule, standing=True),
    # "I broke up with my girlfriend, so please don't bring her up", 「我和男朋友分手了，别再提他了」: the ex kept out
    # of talk, right after the partner's end.
    _r("constraint", "en", r"^(?:so )?(?:please )?(?:don't|do not|never) (?:ever )?(?P<value>bring (?:him|her|them) up|mention (?:him|her|them)|talk about (?:him|her|them)|ask (?:me )?about (?:him|her|them))(?: again| anymore| please)*$", Slot("constraint", "rule-ex", {"en": "Don't bring up their ex", "zh": "不要提前任"}), standing=True, after="family-partner"),
    _r("constraint", "zh", r"^(?:所以|以后)?(?:请)?(?:别|不要|不许)(?:再)?(?:跟我)?(?P<value>提|聊|说)(?:起)?(?:他|她|TA|ta)(?:了)?$", Slot("constraint", "rule-ex", {"en": "Don't bring up their ex", "zh": "不要提前任"}), standing=True, after="family-partner"),
    # "Use British spelling please", "Stop asking me follow-up questions at the end", 「我喜欢你用幽默一点的语气」.
    _r("constraint", "en", r"^(?:please )?(?:always )?(?:use|write in|stick to) (?:British|American|UK|US|Australian|Canadian) (?:English )?spellings?\b.*$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:stop|don't|do not|never|no more|no) (?:ask(?:ing)? me |end(?:ing)? (?:your (?:answers|replies|responses) )?with |add(?:ing)? |(?=follow-up))(?:any |so many |all these |all those )?follow[- ]up questions\b.*$", standing_rule, standing=True),
    _r("constraint", "zh", r"^(?:以后)?(?:别|不要|不用)(?:在最后|在结尾|每次)?(?:都)?(?:再)?(?:反问我|问我问题|追问)(?:了)?$", standing_rule, standing=True),
    _r("constraint", "zh", r"(?:喜欢|希望|想要)你(?:用|说话|回答)?(?:能|可以)?(?:更)?(?P<value>" + _ZH_STYLES + r")(?:一?点|些|一些)?的?(?:语气|风格|方式|口吻)", REPLY_STYLE, standing=True),
    # "Please explain things step by step": how every explanation is laid out.
    _r("constraint", "en", r"^(?:please )?(?:always )?(?:explain|walk me through) (?:things|everything|stuff|concepts|your answers|solutions) (?:to me )?step[- ]by[- ]step$", standing_rule, standing=True),
    _r("constraint", "zh", r"^(?:以后|请)?(?:都|每次)?(?:一步一步|一步步|分步骤)(?:地)?(?:给我)?(?:讲|解释|说明)(?:吧)?$", standing_rule, standing=True),
    # "Please stop saying 'great question'": a phrase kept out of every reply.
    _r("constraint", "en", r"^(?:please )?(?:stop|quit|don't keep|do not keep) (?:saying|starting (?:with|by saying)|ending with) .{3,60}$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:never|don't|do not|don't ever) (?:start|begin|end|open|close) (?:your |any |an |the )?(?:answers?|repl(?:y|ies)|responses?|messages?) (?:with|by saying) .{3,60}$", standing_rule, standing=True),
    # "Never call me after 9pm", "Don't ever suggest pork": a "never do X" rule (core, R-READ-6).
    _r("constraint", "en", r"^(?:please )?(?:never|don't ever|do not ever) (?:call|text|message|email|schedule|book|suggest|recommend|send|mention|remind|wake|contact|ask|show|order|offer|bring up|put|use|include|add|share|post|tell|disclose|reveal|give out)\b.+$", standing_rule, standing=True),
    # "Please don't use exclamation marks in your replies": any mark or word kept out of every
    # reply (last of its group: the format, emoji and style rules above read theirs first).
    _r("constraint", "en", r"^(?:please )?(?:don't|do not|never|stop|avoid) (?:ever )?(?:use|using|put|putting|include|including|add|adding) (?:any )?(?P<item>[\w' -]{2,30}?) in (?:your |the |any |all (?:your )?)?(?:replies|answers|responses|messages)\b.*$", standing_rule, standing=True),
    # Twentieth probe: how to explain, the words to leave out, a summary at the end, the tone; said without
    # "from now on" or "your answers", each is asked of every reply (「解释概念的时候多举例子」, "Avoid jargon").
    _r("constraint", "en", r"^(?:please )?(?:avoid|skip|cut(?: out)?|no|(?:don't|do not|never) use|go easy on|less) (?:the |any |too much |so much )?(?:technical )?(?:jargon|technical terms|buzzwords|acronyms)\b.*$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:don't|do not|never|stop) (?:ever )?(?:use|using|say|saying) (?:the (?:word|phrase|term)s?|words like|phrases like) (?:[\"“'‘][^\"”'’]{1,30}[\"”'’]|[\w-]+)$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:always )?(?:use|give(?: me)?|include|add) (?:lots of|plenty of|more) (?:concrete |real-world |simple )?(?:examples|analogies)\b.*$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?always (?:summari[sz]e|end with a summary|add a (?:short |brief )?summary|give (?:me )?a (?:short |brief )?summary)\b.*$|^(?:please )?(?:summari[sz]e|add a (?:short |brief )?summary|give (?:me )?a (?:short |brief )?summary|include a tl;?dr) at the end of (?:each|every|all)(?: of)? (?:your )?(?:answers?|repl(?:y|ies)|responses?)\b.*$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:talk|speak|write|chat) (?:to|with) me (?P<value>like (?:a |an )?(?:friend|buddy|human|person|normal person|colleague|peer)|casually|informally|plainly|more casually|in plain (?:English|language))\b.*$", REPLY_STYLE, standing=True),
    _r("constraint", "zh", r"^(?:以后|给我|跟我|帮我|你)*(?:解释|讲解?|介绍|说明|回答)[^，。]{0,8}?(?:的时候|时)?[^，。]{0,2}?(?:多|要|请|记得|尽量)(?:举|给|用|打)(?:一些|几个|点|些)?(?:例子|实例|案例|比喻)", standing_rule, standing=True),
    _r("constraint", "zh", r"^(?:以后|每次)?(?:你的)?(?:回答|回复)(?:的)?(?:最后|结尾|末尾)(?:都|请|要|帮我)*(?:总结|概括)(?:一下)?(?:要点|重点)?$", standing_rule, standing=True),
    # Twenty-second probe, rules of replying said without "from now on": a recommendation kept from what the user cannot
    # use, a writing voice, asking first, what to leave out of or put first in every answer, the system of examples.
    _r("constraint", "en", r"^(?:please )?(?:don't|do not|never) (?:recommend|suggest) (?:me )?(?:anything|any \w+|places|restaurants|things|activities|trips|recipes|hikes) (?:that|which|where|with)\b.+$", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:write|talk|speak|sound) (?:to me )?like (?P<value>a (?:human|person|normal person|real person))\b.*$", REPLY_STYLE, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:always )?ask (?:me )?(?:first )?before (?:making|you make) (?:any )?assumptions\b.*$", standing_rule, standing=True),
    _r("constraint", "zh", r"^(?:以后)?(?:回复|回答)?(?:里|中)?(?:请)?(?:别|不要|不用|不必)(?:在回复里|在回答里|在回复中|在最后)?(?:再)?(?:加|写|带|附上?|给)(?:什么|任何)?(?P<item>免责声明|风险提示|客套话|开场白|寒暄)", standing_rule, standing=True),
    _r("constraint", "zh", r"^(?:以后)?(?:回答|回复)(?:问题)?(?:的时候)?(?:请)?(?:都)?先(?:给|说|讲)(?:出)?(?:结论|答案|重点)", standing_rule, standing=True),
    _r("constraint", "zh", r"(?:命令行|命令|脚本)(?:的)?(?:示例|例子)?(?:都|请)?(?:给|用|按|写)(?P<value>Linux|macOS|Mac|Windows)(?:的|版)?$", standing_rule, standing=True),
    _r("constraint", "zh", r"^(?:以后)?(?:回答|回复)?(?P<value>(?:不用|别|不要|不必)(?:写|说|回)(?:得)?(?:那么|这么|太)长)(?:了|啦)?$", REPLY_STYLE, standing=True),
    # "…, so kid-friendly places only": what every place or recipe suggested must be.
    _r("constraint", "en", r"^(?:so )?(?:only )?(?:kid|family|dog|pet|wheelchair|baby|stroller)[- ](?:friendly|accessible) (?:places|restaurants|hotels|options|activities|trips|spots)(?: only)?(?:,? please)?$", standing_rule, standing=True),
    # Twenty-second probe: pinyin over the hard characters of every reply (「回答里的生字请标上拼音」, 「遇到生字给我注音」).
    _r("constraint", "zh", r"^(?:以后|每次)?(?:回答|回复)?(?:里|中)?(?:的)?(?:遇到)?(?:生字|生僻字|难字|不常见的字)[^，。]{0,6}?(?:标|加|注|带|写)(?:上|出)?(?:拼音|注音)|^(?:以后|每次)?(?:遇到|碰到)(?:生字|生僻字|难字)[^，。]{0,4}?注音", standing_rule, standing=True),
    _r("constraint", "en", r"^(?:please )?(?:always )?(?:add|include|give|put|show) (?:the )?pinyin (?:for|over|with|next to|above) (?:any |the |all |hard |rare |uncommon |difficult )*(?:Chinese )?(?:characters|words|hanzi)\b.*$", standing_rule, standing=True),
)
# fmt: on
