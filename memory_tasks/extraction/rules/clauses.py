"""A message cut into clauses, each marked with what the rules may read from it.

The message is cut into sentences (。！？!?；; newline) and clauses (，, 也不, and English ", "
or " and " before a new subject, a time word or a rule's imperative); quoted text is removed first (a sentence to translate is not a
statement of the user). A clause is skipped when it is a question, is about the current
exchange only ("用英文回答这个问题"), is said about someone else ("我朋友…", "my colleague…"), or
`filters.text_drop_reason` rejects it; a one-off task ("帮我…", "write me…") is read for standing
rules only. A clause that names no subject continues the previous clause's ("她是我的同事，住在
北京" is not the user's residence). A short time window (今晚, tomorrow, 这周…) taints its clause
and the later clauses that continue it, so "这周我在减肥，别给我推荐甜点" yields nothing while
"我今天想说一下，我对青霉素过敏" keeps the allergy. A state the user had ("我以前住在杭州", "I used
to work at Google") is skipped: read as current, it would store the old value, usually beside
the new one the message goes on to give. A statement reported from before ("我之前说我住在杭州")
is read, marked `reported`, and a later clause's statement of the same slot replaces it. A forget request ("请忘掉…") is marked, its
text being what to forget; a name clause ("她叫小雨") carries the name for the previous clause.
At most MAX_CLAUSES clauses of at most MAX_CLAUSE_CHARS are read (a bounded cost per message).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from memory_tasks.extraction.filters import short_window, text_drop_reason
from memory_tasks.extraction.rules.lexicon import LEXICON
from memory_tasks.text import HAN, HAN_CHAR, has_han

Lang = Literal["zh", "en"]

# Confidence of an explicit first-person statement, and of a hedged one ("可能", "I think"):
# the hedged one falls under LONG_TERM_MEMORY_MIN_CONFIDENCE (0.75) on purpose.
CONFIDENT = 0.9
HEDGED = 0.6
# A clause longer than this is not read: no statement the rules know runs that long without a
# comma, and the rules' patterns are only cheap on bounded text (the run time stays linear in
# the message: a bounded cost per clause).
MAX_CLAUSE_CHARS = 300
# Clauses read per message: past this a message is a pasted document, not a turn about the user,
# and the rest is not read (a bounded cost per message).
MAX_CLAUSES = 120


@dataclass
class Clause:
    """One clause of the message, with what the rules need to know about it."""

    text: str  # discourse words ("其实", "By the way") stripped
    lang: Lang
    question: bool = False
    request: bool = False  # a one-off task: only standing rules are read from it
    # "self", "other", or "family:<group>" (in_laws, partner, children, parents, siblings, grandparents, grandchildren,
    # relatives)
    subject: str = "self"
    skip: str | None = None  # why no rule may read it
    hedged: bool = False
    forget: bool = False  # "请忘掉…", "forget that…": `text` is what to forget
    name: str | None = None  # "她叫小雨", "her name is Xiaoyu": the name of the previous clause's subject
    sentence: int = 0  # index of its sentence in the message
    continues: bool = False  # names no subject of its own: goes on about the previous clause's
    reported: bool = False  # said as a report of an earlier statement: a later statement of its slot wins
    contrast: bool = False  # opens with 但是 / "but": an exception to the previous clause ("…, but I eat fish")
    member: str | None = None  # the family word its subject was named by ("女儿", "daughter"), for a "she" after it
    member_name: str | None = None  # that member's name said with the word ("My wife Sarah")

    @property
    def confidence(self) -> float:
        return HEDGED if self.hedged else CONFIDENT


_QUOTED = re.compile(r"“(?P<a>[^”]*)”|\"(?P<b>[^\"]*)\"|「(?P<c>[^」]*)」|『(?P<d>[^』]*)』")
# A semicolon between two letters is no sentence end ("TL;DR").
_SENTENCE = re.compile(r"(?:[^。！？!?；;\n]|;(?=\S))+(?:(?:[。！？!?；\n]|;(?=\s|$))+|$)")
# An English full stop ends a sentence unless it follows a single capital ("Ursula K. Le Guin").
# Nor a title's or a saint's ("Dr. Lee", "St. Mary's Hospital").
_EN_FULL_STOP = re.compile(
    r"(?:(?<=[^A-Z\s]\.)|(?<=\b[a-z]\.)|(?<=[a-z]{2}\.))(?<!\b(?:Dr|Mr|Ms|St|Mt|Jr|Sr)\.)(?<!\bMrs\.)(?<!\bProf\.)\s+"
)
# "我不抽烟也不喝酒" is two statements; "一点也不", "从来也不" are one.
_ZH_CLAUSE = re.compile(
    rf"[，,]|(?:^|(?<=[{HAN}]))(?=但是|不过(?!敏)|可是|所以|而且)|(?<=[{HAN}])(?<![点些来都我])(?=也不(?!行|能吃|能碰)|也没)"
)
# A time word or a rule's imperative after "and" starts a clause of its own: "I live in Oslo and
# today it's snowing" keeps the residence; "answer in English and keep it short" is two rules.
_EN_TIME_WORD = r"today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening|week|weekend)|right now"
# The part split off "I'm vegetarian and allergic to nuts", given back its subject.
_EN_BARE_CONDITION = re.compile(
    r"^(?:and )?((?:severely |very |also |mildly )?(?:allergic|lactose intolerant|gluten intolerant)\b)"
    # "I started eating fish again, so pescatarian now": the diet it makes, said without "I'm".
    r"|^(?:so |and )?((?:basically |now )?(?:vegetarian|vegan|pesc[ae]tarian)(?: now)?$)",
    re.IGNORECASE,
)
# The drugs LEXICON knows, in English: what "…and take" may name to be a fact of its own ("and take metformin"; not
# "and take in the view", nor a drug it does not know, which stays with the condition: "Has ADHD and takes Adderall").
_EN_DRUGS = "|".join(
    sorted(
        (
            re.escape(word)
            for _, category, words in LEXICON
            if category == "medication"
            for word in words
            if word.isascii()
        ),
        key=len,
        reverse=True,
    )
)
# A treatment, a thing got, a job taken up or held, or a move said after a clause of the user's without "I": "…, and take
# metformin" -> "I take metformin", "…and got a Tesla" -> "I got a Tesla", "…and became a chef", "…and work at Google",
# "…but moved to Denver".
_EN_VERB_WITHOUT_I = re.compile(
    r"^(?:and|but) (?P<also>(?:also |still |then |now |strictly |recently ))?(?P<verb>take|inject|got|bought|leased"
    r"|adopted|became|moved|relocated|went back to|(?:keep|eat)(?= (?:kosher|halal)\b)|work(?= (?:at|for|as)\b)) ",
    re.IGNORECASE,
)
# "I can't eat anything fried, doctor's orders": the doctor's order it is, as "My doctor told me to avoid …" says it.
_EN_DOCTORS_ORDERS = re.compile(
    r"^I(?: can't| cannot| can not| shouldn't| should not| am not allowed to|'m not allowed to) (?:eat|have|drink) "
    r"(?P<what>[\w -]{2,30}?),? (?:(?:it's |on |by )?(?:my )?doctor['\u2019]?s orders|per (?:my )?doctor)[.!]?$",
    re.IGNORECASE,
)
# 「我家有两个娃」, 「我家娃今年5岁」: 娃 (娃娃) is a child.
_ZH_KIDS_SAID_AS_WA = re.compile(r"(?:(?<=[一两二三四\d]个)|(?<=我家)|(?<=我们家)|(?<=家里))娃(?:娃|儿)?")
# The verbs of a dose changed ("bumped my sertraline up to 100mg"), which `table`'s dose rule reads.
EN_DOSE_CHANGED = r"bumped|increased|raised|upped|lowered|reduced|cut|dropped|changed"
# Who changes a dose, as `table`'s dose rule reads it: "my doctor", "my cardiologist", "my psychiatrist", "my GP".
EN_PRESCRIBER = r"(?:my |the )?(?:doctor|doc|GP|specialist|nurse practitioner|\w+(?:ologist|iatrist|ician))"
# "They upped my metformin to 1000mg": whoever changed the user's dose, it is the doctor's change of it.
_EN_DOSE_CHANGED_BY_THEM = re.compile(
    rf"^(?:they|she|he)(?:'ve| have)?(?= (?:just )?(?:{EN_DOSE_CHANGED}) my )",
    re.IGNORECASE,
)
# "I traded in my Civic for a RAV4 last weekend": the car sold, and the one got (when is no part of either).
_EN_TRADED_IN = re.compile(
    r"^I(?:'ve| have)? (?:just |finally )?traded (?:in )?(?:my|the|our) (?P<old>[\w -]{2,20}?) for an? (?:new )?"
    r"(?P<new>[\w -]{2,30}?)(?: (?:last|this) \w+| \w+ ago)?$",
    re.IGNORECASE,
)
# "I'm on blood thinners, so no aspirin": a drug ruled out, as "so I can't take aspirin" says it.
_EN_NO_DRUG = re.compile(
    r"^so no (?P<drug>aspirin|ibuprofen|NSAIDs|painkillers|" + _EN_DRUGS + r")(?: for me)?$", re.IGNORECASE
)
# "I don't do dairy or gluten": what the user does not eat or drink, said with "do" (foods or drinks, not both:
# "I don't do caffeine or sugar" names no one verb).
_EN_DONT_DO_FOODS = (
    r"dairy|gluten|meat|red meat|pork|beef|sugar|carbs|fried food|spicy food|seafood|shellfish|eggs|nuts|soy"
)
_EN_DONT_DO_DRINKS = r"alcohol|caffeine|coffee|booze|soda"


def _en_list_of(words: str) -> str:
    """A pattern of one or more of `words` (alternatives) listed with commas, "or" and "and"."""
    return rf"(?:{words})(?:(?:,| or| and|, or|, and) (?:{words}))*"


_EN_DONT_DO = re.compile(
    rf"^I (?:don't|do not) do (?:(?P<foods>{_en_list_of(_EN_DONT_DO_FOODS)})|(?P<drinks>{_en_list_of(_EN_DONT_DO_DRINKS)}))$",
    re.IGNORECASE,
)
# "…, and training for my first marathon" after "I'm 28": the user's "I'm", not said again.
_EN_DOING_WITHOUT_SUBJECT = re.compile(
    r"^(?:and |also |but )*(?=(?:training|learning|studying|trying|planning|saving up|working on|looking for)\b)",
    re.IGNORECASE,
)
_EN_I_AM = re.compile(r"^I(?:'m| am)\b", re.IGNORECASE)
# 「我对花生过敏，还有轻度哮喘」: a condition said alone after the user's own clause is the user's.
_ZH_HEALTH_TERMS = "|".join(
    sorted(
        (re.escape(w) for _, category, words in LEXICON if category == "health" for w in words if has_han(w)),
        key=len,
        reverse=True,
    )
)
# 「最近不跑了」: the sport said by its verb alone is the sport (「不跑步了」).
_ZH_SPORTS_BY_VERB = {"跑": "跑步", "游": "游泳"}
_ZH_SPORT_SAID_BY_ITS_VERB = re.compile(r"不(?P<again>再)?(?P<verb>跑|游)了$")
# 「每周游两次泳」, 「游个泳」, 「跑一会儿步」: the sport's two characters with its count between them, and 「跑五公里」
# said by its verb, are the sport (「每周游泳两次」, 「跑步五公里」).
_ZH_SPORT_VERB_SPLIT = re.compile(
    r"(?:(?P<swim>游)|跑)(?:(?P<count>[一二两三四五六七八九十几\d]+(?:次|回|趟|个小时|小时|分钟))|一?个|一?会儿?)(?(swim)泳|步)"
    r"|跑(?P<distance>[一二两三四五六七八九十百几\d.]+\s*(?:公里|千米|km|KM|英里))"
)
# Parents fetched to live with the user have moved: 「我把爸妈从河南接过来跟我一起住了」 is said of them, 「我爸妈从河南搬过来
# 跟我一起住了」 (a family fact, the home they left no longer theirs).
_ZH_BROUGHT_OVER = re.compile(
    r"^我(?:已经|刚|刚刚|去年|今年)?把(?:我)?(?P<who>爸妈|父母|爸爸妈妈|老爸老妈|爸爸|妈妈|我爸|我妈|婆婆|公公|岳父|岳母|奶奶|爷爷|外婆|外公)"
    r"从(?P<place>[^，。]{1,8}?)接(?:过来|来|到[^，。]{1,6}?)(?=跟我|和我|一起|住|了|$)"
)
# A time kept for something is a habit of that time: 「周五晚上是我跟朋友固定打麻将的时间」 -> 「我周五晚上跟朋友固定打麻将」.
_ZH_TIME_KEPT_FOR = re.compile(r"^(?P<when>[^，。是我]{2,8})是我(?P<what>[^，。]{2,20}?)的(?:时间|日子)$")
# A language learned to a level says the level: 「我在学法语，目前到A2了」 is 「我法语学到A2了」.
_ZH_LEARNING_TO_A_LEVEL = re.compile(
    r"^我?(?:在|正在)学(?P<language>[^，,。]{1,4}?[语文])[，,]\s*(?:目前|现在|已经)?(?:到|学到)了?(?P<level>[ABCabc][12])(?:水平|级别|级)?了?"
)
# A family member said first as the one something is given to: 「爸妈那边，我每月给两千生活费」 is 「我每月给爸妈两千生活费」.
_ZH_GIVEN_TO_SAID_FIRST = re.compile(
    r"^(?P<who>爸妈|父母|爸爸妈妈|老爸老妈|我爸妈|我妈|我爸|爷爷奶奶|外公外婆)那边[，,]\s*我(?P<how>[^，。给]{0,6})给(?:她们|他们|她|他)?(?!我)"
)
# A monthly payment said after what it pays: 「我提前还了一部分房贷，现在每个月只要还四千五了」 says the mortgage payment.
_ZH_PAYMENT_SAID_AFTER = re.compile(
    r"房贷[，,]\s*(?:现在)?(?:每个月|每月)(?:只)?(?:要|需要|得)?还(?=[\d一二两三四五六七八九十百千万])"
)
# A recommendation's count said after it: 「以后推荐东西给我，三个以内就够了」 is 「以后推荐东西给我最多三个」.
_ZH_OPTIONS_SAID_AFTER = re.compile(
    r"推荐(?P<what>东西|选项)?给我[，,]\s*(?P<count>\d{1,2}|[一二两三四五六七八九十])个以内(?:就)?(?:够了|行|好|可以)?"
)
# 「最近迷上的是密室逃脱」: what the user took to, said as a choice, as the rules read it (「最近迷上了密室逃脱」).
_ZH_TAKEN_TO_SAID_AS_A_CHOICE = re.compile(r"(?P<verb>迷上|爱上|喜欢上)的是")
# 你 asked for in place of 您, however said: 「跟我说话别用“您”，用“你”就行」, 「以后回复里把“您”都换成“你”吧」.
_ZH_PLAIN_YOU = re.compile(
    r"^.*?(?:别|不要|不用|不必)(?:再)?(?:用|称呼我|叫我|说)?[“\"「]您[”\"」].*?[“\"「]你[”\"」].*$"
    r"|^.*?把[“\"「]您[”\"」](?:都|全)?(?:换成|改成|改为)[“\"「]你[”\"」].*$"
)
# A shared flat said before its flatmates: 「我是合租的，有两个室友」 is 「我和两个室友合租」.
_ZH_SHARING_WITH = re.compile(r"^我(?:是)?合租的?[，,]\s*(?:有|跟|和)(?P<count>[\d一二两三四五六七八九十]{1,2})个室友")
# A home's rooms said before its size: 「我们家是两室的，89平米」 is 「我们家是89平的两居室」.
_ZH_ROOMS_THEN_AREA = re.compile(
    r"^(?P<whose>我家|我们家|我)(?:是|住的是)(?P<rooms>[一两二三四五])(?:室|居)的?[，,]\s*(?P<area>\d{2,4})(?:平米|平方米?|平)"
)
# A drink said, then how much is the limit: 「喝白酒的话，二两就是我的极限了」 is 「我白酒最多喝二两」.
_ZH_DRINKING_LIMIT_SAID_AFTER = re.compile(
    r"^喝(?P<drink>白酒|红酒|啤酒|黄酒)的话[，,]\s*(?P<amount>[\d一二两三四五六七八九十半]{1,3}[两杯瓶])就是我的极限了?"
)
# A hobby said, then how long: 「我有个爱好是拉二胡，已经拉了十年」 is 「我拉二胡拉了十年」.
_ZH_HOBBY_FOR_YEARS = re.compile(
    r"^(?:其实)?我(?:有个|的)爱好(?:是|就是)(?P<verb>[拉弹吹打练])(?P<item>[^，,。]{2,4})[，,]\s*(?:已经)?(?P=verb)了(?:有)?"
    r"(?P<years>[\d一二两三四五六七八九十]{1,3})年"
)
# A condition said without its verb is had: 「（我有高血压，）还有糖尿病」, 「（我胃不好，）是慢性胃炎」.
_ZH_BARE_CONDITION = re.compile(
    rf"^(?:还有|另外还有|另外|同时还有|也有|是|就是|其实是|查出来是|确诊是|诊断是)(?P<condition>(?:轻度|中度|重度|轻微的?|慢性)?(?:{_ZH_HEALTH_TERMS}))$"
)
_EN_CLAUSE = re.compile(
    # "I love tea, coffee, and pickles": ", and" before a list's last item, one or two words that end the sentence (when
    # it is done may follow: "…, and chess every weekend"), is no clause of its own.
    r",\s*(?!and (?:an? |the |some )?(?!(?:I|I'm|I've|we|my|so|then|now|also|still|not|never|don't|please|it|it's)\b)"
    r"[\w'-]+(?: [\w'-]+)?(?: every \w+| on \w+(?:days|ends))?[.!]?$)"
    r"(?=(?:I|I'm|I've|I'd|I'll|we|we're|my|but|and|so|which|now|especially|mostly|aiming|have|not|no|because|since|originally"
    r"|although|though|even|plus|also|what|how|any|good|too|just|jk|kidding|joking|allergic|her name|his name|it's|it is|it was|except|"
    + _EN_TIME_WORD
    + r")\b)|\s+(?=but (?:I|my|it's|it is|they|there)\b)"
    # "I'm originally from Brazil but live in Toronto now": where the user lives, after the hometown; "I used to live
    # in Chicago but moved to Denver", "… but now I live in Denver": the move, after the home left.
    r"|\s+(?=but (?:now |currently )?(?:live|living) in\b)"
    r"|,?\s+(?=but (?:now |then |recently |last year )?(?:I )?(?:(?:have |'ve )?moved|relocated|(?:now )?live)\b)"
    # "I hurt my knee so I stopped running": what the user did about it is a statement of its own.
    r"|\s+(?=so I (?:stopped|quit|gave up|had to (?:stop|quit|give up)|can't|cannot|don't|no longer)\b)"
    # "I'm colorblind so please don't rely on colors": what the assistant is asked is a rule of its own.
    r"|\s+(?=so (?:please )?(?:don't|do not|never|avoid)\b)"
    # "I'm 28, vegan, and training for a marathon": a diet in a list of what the user is.
    r"|,\s*(?=(?:and )?(?:vegan|vegetarian|pesc[ae]tarian)\s*(?:,|$))"
    # "My favorite language is Rust but at work I use Java": another statement, of where or when.
    r"|\s+(?=but (?:at|for|in|on) [\w ]{1,15}? I\b)"
    r"|\s+(?=and (?:(?:now|then|since then) (?=I\b|I'm|I've|we\b|my\b))?(?:I|I'm|I've|we|we're|my|"
    + _EN_TIME_WORD
    + r"|keep|don't|do not|never|avoid|please)\b)"
    # "I'm vegetarian and allergic to nuts": an allergy after a diet is a fact of its own (`_EN_BARE_CONDITION`).
    r"|\s+(?=and (?:(?:severely|very|also|mildly) )?(?:allergic|lactose intolerant|gluten intolerant)\b)"
    # "I sold my Civic and got a Tesla": what the user got is a statement of its own (`_EN_VERB_WITHOUT_I`).
    r"|\s+(?=and (?:then )?(?:got|bought|leased|adopted) (?:a|an|my|our) )"
    # "I live in Ohio and work at Google": where the user works is a statement of its own (`_EN_VERB_WITHOUT_I`).
    r"|\s+(?=and (?:also |now |currently )?work (?:at|for|as)\b)"
    # "I quit accounting and became a chef": the job now is a statement of its own; so is what the user went back to.
    r"|\s+(?=and (?:then |now )?became an? )|\s+(?=and (?:then )?went back to )"
    # "I'm Jewish and keep kosher": the diet is a fact of its own.
    r"|\s+(?=and (?:also |strictly )?(?:keep|eat) (?:kosher|halal)\b)"
    # "I have type 2 diabetes and take metformin": the drug is a fact of its own (`_EN_VERB_WITHOUT_I`).
    r"|\s+(?=and (?:also |still )?(?:take|inject) (?:my |daily |an? )?(?:" + _EN_DRUGS + r")\b)"
    # "I live on the sixth floor and there's no elevator": the building's lift is a fact of its own.
    r"|\s+(?=(?:and there(?:'s| is) |with )no (?:elevator|lift)\b)"
    # "Update: I now work at Stripe", "Change of plan: use 4 spaces": what follows a colon is a statement of its own.
    r"|\s*[:：]\s*(?=(?:I|I'm|I've|we|we're|my|please|always|never|use|keep)\b)"
    # "My job is respiratory therapy — I'm at Children's Mercy": so is what follows a dash (not a correction's "no —").
    r"|(?<!\bno)(?<!\bwait)(?:\s*[—–]|\s+-)\s*(?=(?:I|I'm|I've|we|we're|my)\b)",
    re.IGNORECASE,
)
# "平时我爱喝可乐", "normally I don't drink": the subject after a frequency word, put first as the
# rules read it ("我平时爱喝可乐", "I normally don't drink").
_ZH_ADVERB_FIRST = re.compile(
    r"^(?P<adv>平时|平常|一般|通常|其实|本来|从小|向来|每天|周末|每晚|中午|晚上|早上|晚饭后|晚饭过后|饭后|睡前|下班后"
    r"|每个?(?:周|星期|礼拜)[一二三四五六日天末]?|(?:周|星期|礼拜)[一二三四五六日天])(?:的时候)?[，,]?我(?![们家])"
)
# "I'm Maya, 34, a pediatric nurse": the name and age said first (a profile, not stored) before what the user is.
_EN_INTRODUCED = re.compile(
    r"^I(?:'m| am) (?-i:[A-Z][a-z]+)(?: (?-i:[A-Z][a-z]+))?,\s*(?:\d{1,3}(?: years old| y/?o)?,\s*)?(?=an?\s)",
    re.IGNORECASE,
)
# "Next year I want to run a marathon": a lasting time lead goes after the statement, where the rules
# read it ("I want to run a marathon next year"); a near one (next week, tomorrow) stays first.
_EN_TIME_LEAD = (
    r"next (?:year|summer|spring|fall|autumn|winter)|this year|someday|some day|one day|eventually"
    r"|in the (?:long run|future)"
    # How often: "Every morning I go for a run", "On weekends I play tennis", "Twice a week I swim".
    r"|(?:every|each|most|on most) (?:day|morning|evening|night|week|weekend|month|year|spring|summer|fall|autumn"
    r"|winter|(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?"
    r"|on (?:weekends|the weekends?|weekdays|(?:mon|tues|wednes|thurs|fri|satur|sun)days)"
    r"|(?:on )?(?:mon|tues|wednes|thurs|fri|satur|sun)day (?:mornings|afternoons|evenings|nights)"
    r"|(?:once|twice|\w+ times) a (?:day|week|month|year)|in the (?:mornings|evenings|afternoons)|at night"
    r"|after work|after dinner|before bed|before work"
    # What for: "For trips, I typically budget around $2,000"; in place of what: "Instead of soft drinks, I go for…".
    r"|for (?:trips|vacations|holidays|travel)|instead of [\w -]{2,30}?"
    # Where: "At work I use Java".
    r"|at work|at home|for work|at my job|getting to work|to get to work"
)
# "Every spring my hay fever kicks in": the user's own, said with "my".
_EN_TIME_FIRST = re.compile(r"^(?P<when>" + _EN_TIME_LEAD + r"),? (?P<rest>(?:I|we|my)\b.+)$", re.IGNORECASE)
# The pets a user may have, by kind (`table.EN_PET_MENTION` and the pet rules).
EN_PET_KINDS = (
    r"cats?|dogs?|rabbits?|hamsters?|parrots?|turtles?|goldfish|ferrets?|bearded dragons?|guinea pigs?|hedgehogs?"
    r"|lizards?|geckos?|snakes?|chinchillas?|horses?|ponies|pony"
)
# A pet named as said of its name: "My pet ferret is called Pepper", "Spike is my bearded dragon" -> "I have a ferret
# named Pepper", "I have a bearded dragon named Spike".
_EN_PET_NAMED = re.compile(
    rf"^my (?:pet )?(?P<kind>{EN_PET_KINDS})(?:'s name is| is called| is named) (?P<name>(?-i:[A-Z])[a-z]+)$"
    rf"|^(?P<named>(?-i:[A-Z])[a-z]+) is (?:my|our) (?:pet )?(?P<kind_named>{EN_PET_KINDS})$",
    re.IGNORECASE,
)
# A pet of any kind, said as "my pet": "My pet is an axolotl" -> "I have a pet axolotl" (`table`'s pet of any kind).
_EN_MY_PET_IS = re.compile(
    r"^my (?:only )?pet is an? (?!peeve)(?P<kind>(?-i:[a-z])[\w-]+(?: (?-i:[a-z])[\w-]+)?)$", re.IGNORECASE
)
# Whom the user reports to, said of the manager: "My manager's name is Priya", "my new boss is Tom" -> "I report to …".
_EN_MANAGER_NAMED = re.compile(
    r"^(?:so )?my (?:new )?(?:manager|boss)(?:'s name is| is called| is named| is) (?P<name>(?-i:[A-Z])[a-z]+)$",
    re.IGNORECASE,
)
# "Sparkling water is what I drink instead of soda" -> "I drink sparkling water instead of soda".
_EN_IS_WHAT_I = re.compile(
    r"^(?P<what>[\w -]{2,30}?) is what I (?P<verb>drink|eat|use|read|listen to|watch|play)\b(?P<rest>.*)$",
    re.IGNORECASE,
)
# A day kept for something is a habit of that day: "Sundays are my meal prep day", "I spend Saturday mornings
# gardening" -> "I do meal prep on Sundays", "I do gardening on Saturday mornings".
_EN_DAYS = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekends)(?: (?:mornings|afternoons|evenings|nights))?"
_EN_DAY_KEPT_FOR = re.compile(
    rf"^(?P<when>{_EN_DAYS}) are my (?P<what>[\w -]{{3,30}}?) (?:day|days|time|night|nights)$"
    rf"|^I spend (?:my )?(?P<spent>{_EN_DAYS}) (?P<doing>\w+ing)$",
    re.IGNORECASE,
)
# "On Saturday mornings, I'm usually out gardening": the comma after the time lead splits no clause off.
_EN_TIME_LEAD_COMMA = re.compile(r"^(?P<when>" + _EN_TIME_LEAD + r"),\s*(?=(?:I|we|my)\b)", re.IGNORECASE)
_EN_ADVERB_FIRST = re.compile(
    r"^(?P<adv>usually|normally|generally|typically|often|always|sometimes|mostly|nowadays|currently|right now),?"
    r" (?P<me>I(?:'m| am)?) ",
    re.IGNORECASE,
)
_ZH_DISCOURSE = re.compile(
    r"^(?:其实|对了|另外|顺便说一下|顺便|哦|噢|嗯|啊|还有|而且|但是|不过|可是|所以|因为|请记住|记住|记得|你要记住|告诉你(?:一下|一声)?|跟你说(?:一下|一声)?"
    r"|别忘了|不要忘了|提醒一下(?=[，,])|说一下(?=[，,])"
    r"|补充一下|话说|总之|反正|然后|哈哈"
    # A correction's lead: 「不对，她叫小虹」, 「说错了，我住在杭州」.
    r"|(?:不对|说错了|我说错了|搞错了|口误|更正一下|纠正一下)(?=[，,、\s]|$))[，,、\s]*"
)
# What the user is allergic to, named first as a correction does: "(Actually) it's amoxicillin I'm allergic to".
_EN_CLEFT = re.compile(
    r"^(?:it's|it is) (?P<item>[\w -]{2,30}?) (?:that )?I(?:'m| am) (?:actually )?"
    r"(?P<what>allergic to|intolerant to|sensitive to)$",
    re.IGNORECASE,
)
# A word tacked on at the end that states nothing: "…allergic to penicillin btw", "… lol".
_EN_AFTERTHOUGHT = re.compile(r",?\s+(?:btw|by the way|fyi|lol|lmao|haha+|tbh|just saying)$", re.IGNORECASE)
_EN_DISCOURSE = re.compile(
    r"^(?:also|actually|oh|btw|by the way|fyi|just so you know|remember(?: that)?|please note(?: that)?|note(?: that)?"
    r"|please remember(?: that)?|(?:don't|do not|never) forget(?: that)?|keep in mind(?: that)?|just remember(?: that)?"
    r"|for the record|and|but|so|well|honestly|anyway|plus|ps|now|I think|I guess|maybe|probably|perhaps"
    # A lead to the listener: "I should mention I'm a nurse", "I forgot to tell you that I'm vegan".
    r"|I (?:should|forgot to|wanted to|want to|have to|gotta)(?: probably| also)? (?:mention|tell you|say|let you know)"
    r"(?: that)?"
    # "Next, I want to…": what comes next, not when (not "Next week I'm…").
    r"|next(?=,? I\b)"
    # A time lead before the subject: "These days I mostly write Rust", "Lately, I drink tea".
    r"|these days|lately"
    # A correction's lead: "Sorry, I meant I work at Amazon", "Correction: my daughter is 7".
    r"|sorry|oops|correction|to correct myself|I meant(?: to say)?(?: that)?|what I meant (?:is|was)(?: that)?"
    # "Wait, no — I live in Dallas": a correction's lead, before a comma or a dash.
    r"|wait|no(?=\s*[,—–]|\s+-\s))\b(?:(?:\s*[—–]\s*|\s+-\s+|[,:\s])+|$)",
    re.IGNORECASE,
)
_ZH_QUESTION = re.compile(
    # 「不怎么」 ("not much": 「我平时不怎么吃辣」) asks nothing; nor a 呢 that says something goes on or has not yet
    # happened (「我在学葫芦丝呢」, 「还没结婚呢」), unlike 「那你呢」.
    r"[吗么][？?]?$|呢[？?]$|^(?!.*(?:在|着|还没|还不))[^，。]{0,10}呢$|什么|(?<!不)怎么|为什么|为啥|哪[个里些儿种]|多少|是不是|能不能|可不可以|有没有|要不要|会不会|好不好"
)
# 什么…就…什么 (「我用什么语言你就用什么语言」, 「想吃什么就吃什么」) says "whatever": no question.
_ZH_WHATEVER = re.compile(r"什么[^，。]*就[^，。]*什么")
# How much or how long asked to be written down asks the user nothing: 「每一步都标上大概要多少分钟」, 「写出要花多久」.
_ZH_WRITE_HOW_MUCH = re.compile(
    r"(?:标|写|注明|注|列|说明|带|加)(?:上|出|出来|一下|清楚)?[^，。]{0,6}?(?:多少|多久|多长|几)"
)
_EN_QUESTION = re.compile(
    r"^(?:(?:do|does|did|can|could|would|will|is|are|should|shall|may|have)\s+(?:you|i|we|it|they)\b"
    r"|(?:what|how|why|where|who|which)(?:'s|\s+(?:is|are|do|does|did|can|should|would|was))\b)",
    re.IGNORECASE,
)
_ZH_REQUEST = re.compile(
    r"^(?:请|麻烦你?)?(?:帮我|帮忙|给我(?:写|讲|推荐|找|查|翻译|列)|翻译|写一|解释一下|总结一下|查一下|搜一下|告诉我)"
)
_EN_REQUEST = re.compile(
    r"^(?:please\s+)?(?:translate|write|summarize|explain|tell me|give me|show me|help me|find|search|look up|set|create"
    r"|make|generate|draft|fix|check|can you|could you|would you)\b",
    re.IGNORECASE,
)
# "用英文回答这个问题", "answer this one in French": about the current exchange only.
_ONE_OFF = re.compile(
    r"这个问题|这道题|这次|这一次|这段|这句|这篇|下面这|this (?:one|time|question|answer|message|text)|just this|for now",
    re.IGNORECASE,
)
# A degree said right after a request, of what it asks for: 「（给我推荐几本书吧，）别太长的」 (the books, not every reply).
_ZH_DEGREE_ALONE = re.compile(
    r"^(?:别|不要|不用)?(?:太|过于|那么)?(?:长|短|难|贵|复杂|啰嗦|啰唆)(?:的|了|点|一点|些)?$"
)


def _describes_the_request(clause: Clause, before: list[Clause]) -> bool:
    """True for a Chinese clause that is only a degree of what the request just before it asks for: 「给我推荐几本书吧，
    别太长的」 (the books, not every reply). Anything more stays a statement: 「帮我推荐个餐厅，对海鲜过敏」 is the
    user's allergy, 「…，以后回答别太长」 a rule."""
    return (
        clause.lang == "zh"
        and clause.continues
        and bool(before)
        and before[-1].request
        and before[-1].sentence == clause.sentence
        and _ZH_DEGREE_ALONE.match(clause.text) is not None
    )


# The day a lasting change happened, said with it: "I moved to Austin this week", "My son turned 7 today", 「我这周刚
# 搬到深圳」, 「女儿今天开始上小学了」. The change is what lasts ("I got sick this week" names none of these changes).
_EN_CHANGE_DATED = re.compile(
    r"^(?P<change>.*\b(?:moved|relocated|started|began|turned|switched|joined|retired|graduated|quit"
    r"|got (?:married|engaged|divorced|promoted|hired))\b.*?),?\s*\b(?:this (?:week|month|morning|weekend)|today)\b"
    r"(?P<after>.*)$",
    re.IGNORECASE,
)
_ZH_CHANGE_DATED = re.compile(
    r"(?:这周|本周|这个?星期|今天|这个月|本月)(?:刚刚?|才)?"
    r"(?=[^，。]{0,8}?(?:搬到|搬去|搬家|开始上|上了|升了|升到|入职|转到|换了|退休|毕业|结婚|满))"
)


def _change_undated(text: str, lang: Lang) -> str:
    """`text` without the day of the lasting change it tells (`_EN_CHANGE_DATED`, `_ZH_CHANGE_DATED`), which would
    read as a short-term window."""
    if lang == "zh":
        return _ZH_CHANGE_DATED.sub("", text)
    dated = _EN_CHANGE_DATED.match(text)
    return f"{dated['change']}{dated['after']}" if dated else text


# A condition named with no verb, after what found it: 「（我确诊了）甲亢」.
_ZH_CONDITION_ALONE = re.compile(rf"^(?:轻度|中度|重度|轻微的?|慢性)?(?:{_ZH_HEALTH_TERMS})$")
_LASTING_AFTER_WINDOW = re.compile(
    r"^.*?(?:[才刚]?发现|[才刚]知道|得知|被确诊|确诊(?=了)|医生说|(?:检)?查出来?)(?:了)?(?:自己|我)?(?P<rest>.+)$"
    # 「明天开始我要戒咖啡」: the day a resolution starts, not a window it holds in.
    r"|^(?:从)?(?:明天|后天|下周一?|下星期一?|下个月|下月|今天|这周|本周|月底|年后)(?:起|开始)(?:我)?(?P<rest_start>(?:要|打算|准备|决定|想).+)$"
    r"|^.*?\b(?:found out|learned|learnt|realized|realised|discovered|turn(?:s|ed) out"
    r"|(?:doctor|dentist|GP|physician|therapist|allergist)(?: has)? (?:says|said|told me|confirmed))(?: that)? (?P<rest_en>I.+)$"
    r"|^(?:starting|from) (?:tomorrow|today|next (?:week|month|monday)|monday)(?: on)?,? (?P<rest_start_en>I(?:'m| am)? (?:going to|gonna|will|want to|plan to)\b.+)$",
    re.IGNORECASE,
)
# A supposition of the user's: 「如果我是素食者」, 「要是我怀孕了」, "If I were vegan", "Suppose I moved to Tokyo".
# ("If I ask for code, give me the full file" is a standing rule, in the indicative.)
_SUPPOSED = {
    # Not the condition of a rule for a request: 「如果我问菜谱，都按素食来」.
    "zh": re.compile(r"^(?:如果|要是|假如|假设|倘若|万一|若是)(?:说)?我(?!问|让你|请你|找你)"),
    "en": re.compile(
        r"^(?:if I were|if I was|suppose I|supposing I|what if I|imagine (?:that )?I|say I|let's say I|pretend (?:that )?I"
        r"|let's pretend|assume I|hypothetically)\b",
        re.IGNORECASE,
    ),
}
# A role-play or an imagined scene: the whole sentence is the scene, whoever its clauses name ("Pretend you're my
# wife and I'm a doctor", 「我们来玩角色扮演，你是医生，我是病人」).
_IMAGINED = {
    # Not 「想象不到…」 nor "Imagine my surprise when…", which say what is so.
    "zh": re.compile(
        r"^(?:请)?(?:你)?(?:扮演|假装|想象一下|想象你|想象我们|模拟一下)|^(?:我们)?(?:来)?(?:玩)?(?:个|一个)?角色扮演"
    ),
    "en": re.compile(
        r"^(?:(?:let's|let us) )?(?:pretend|role-?play)\b|^(?:(?:let's|let us) )?imagine (?:that |if |we |you |being )"
        r"|^(?:act as|play the role)\b|^in this (?:role-?play|scene)\b",
        re.IGNORECASE,
    ),
}
# A worry or a doubt of the user's own is no diagnosis: 「我怕我得了糖尿病」, 「我担心自己有抑郁症」 (「我怕冷」 is a trait).
# 大概 asking an estimate is no doubt (「每一步标一下大概要花多长时间」).
_ZH_HEDGE = re.compile(
    r"可能|也许|大概(?!(?:要|需要)?花?(?:多长|多久|多少|几))|好像|应该是|说不定|或许|怕我|怕自己|担心|怀疑(?!论)|不知道(?:自己)?是不是|不确定"
)
_EN_HEDGE = re.compile(
    r"\b(?:maybe|probably|perhaps|i think|i guess|kind of|sort of|might|wonder(?:ing)? (?:if|whether)"
    r"|not sure (?:if|whether)|don't know (?:if|whether)|unsure (?:if|whether))\b",
    re.IGNORECASE,
)
# A standing rule asked as a question: "Can you keep answers under 200 words?", "Could you always answer
# in bullet points?", 「你能不能以后都用中文回答？」. Only when it says it is for every answer (a standing
# word, or answers in the plural): "Can you keep it short?" asks about this answer.
_EN_STANDING_ASKED = re.compile(
    r"^(?:can|could|would|will) you (?:please )?(?P<rule>(?:(?:always|from now on|going forward),? ).+"
    r"|.+\b(?:from now on|going forward|in (?:the )?future|every time)"
    r"|(?:keep|make|write|give me) (?:your |all your |the )?(?:answers|replies|responses)\b.+"
    # "Can you remind me that I'm vegan when suggesting recipes?": a fact to heed every time it applies.
    r"|(?:always )?remind me (?:that )?I(?:'m| am) .+ when(?:ever)? .+)$",
    re.IGNORECASE,
)
_ZH_ASK = r"(?:能不能|能否|可不可以|可以|能)"
_ZH_STANDING_ASKED = re.compile(
    rf"^(?:你|您)?(?P<before>{_ZH_ASK})?(?P<when>以后|今后|从现在(?:开始|起))(?:你|您)?(?P<after>{_ZH_ASK})?"
    r"(?P<rule>[^吗呢]+?)(?P<particle>吗|呢|好吗|行吗|可以吗|好不好|行不行)?$"
)


def standing_rule_asked(text: str, lang: Lang, asked: bool) -> str | None:
    """The rule a question asks to be kept from now on, as an imperative ("Can you always answer in
    bullet points" -> "always answer in bullet points", 「以后能不能都用中文回答」 -> 「以后都用中文回答」), or None.
    `asked`: the clause ends its sentence with a question mark."""
    if lang == "en":
        match = _EN_STANDING_ASKED.match(text)
        return match.group("rule") if match else None
    match = _ZH_STANDING_ASKED.match(text)
    if not match:
        return None
    ask = match.group("before") or match.group("after")
    # 「以后可以给我推荐辣的了」 grants, it asks nothing: 可以 / 能 ask only with a question mark or particle.
    asks = ask in ("能不能", "能否", "可不可以") or (ask and (asked or match.group("particle")))
    # 「以后你会记得吗」 asks nothing of the answers; 「以后可以推荐什么」 is a question of its own.
    if not asks or _ZH_QUESTION.search(match.group("rule")):
        return None
    return f"{match.group('when')}{match.group('rule')}"


# A statement reported from before: what follows is read, and yields to a later statement of its
# slot ("我之前说我住在杭州，其实我已经搬到深圳了"); alone it stands ("我之前跟你说过我对花生过敏").
_ZH_REPORTED = re.compile(
    r"^我?(?:之前|以前|刚才|上次|早就)(?:跟你|和你|对你|给你)?(?:说|讲|提|告诉你)过?(?:的)?(?:，|,)?(?P<rest>我.+)$"
)
_EN_REPORTED = re.compile(
    r"^I (?:said|told you|mentioned|wrote)(?: (?:before|earlier|last time|once))?(?: that)? (?P<rest>I\b.+)$",
    re.IGNORECASE,
)
# A state the user had and may not have now: "我以前住在杭州", "I used to work at Google". "从小" (since
# childhood) and "not used to" (accustomed) are no such words.
# A faith said first as the reason: 「我因为宗教原因不吃猪肉」 is 「我不吃猪肉，宗教原因」 (`engine._FAITH` reads the reason).
_ZH_FOR_FAITH_FIRST = re.compile(
    r"^(?P<who>我们家|我)?(?:因为|由于|出于)(?:宗教|信仰)(?:的)?(?:原因|关系|信仰)?[，,]?(?P<avoidance>(?:也|都|从来|一直)*不[^，。]+)$"
)
# A birthday today says an age from now on: 「我女儿今天四岁生日」 is 「我女儿今年四岁了」 (not a day's window).
_ZH_BIRTHDAY_TODAY = re.compile(r"今天(?:是|过)?(?:她|他|我)?的?(?P<age>[一二两三四五六七八九十\d]+)岁生日")
_ZH_FORMER = re.compile(r"^(?:我们?)?(?:以前|之前|原来|原先|过去|曾经|从前|早先|当年|那时候?)")
# A surgery had is a lasting fact of the body, said in the past: "I had gastric sleeve surgery in 2021", 「做过…手术」.
SURGERY_AFTER_HAD = r" (?:a |an |my )?(?:[\w-]+ ){0,3}?(?:surgery|\w+ectomy|\w+plasty|transplant|bypass)\b"
SURGERY_HAD_EN = rf"\b(?:had|have had|'ve had){SURGERY_AFTER_HAD}"
SURGERY_HAD_ZH = r"(?:做过|动过|做了)[^，。]{0,8}手术"
# A history of the body outlasts the past it is told in: 「我以前得过心梗」, "I previously had a stroke" are medical
# facts still.
_BODYS_HISTORY = re.compile(
    r"(?:得过|患过|犯过|发过|做过|动过)[^，。]{0,8}?(?:病|癌|梗|中风|支架|搭桥|移植)"
    rf"|{SURGERY_HAD_ZH}|\bhad (?:a |an )?(?:\w+ )?(?:heart attack|stroke|cancer)\b|{SURGERY_HAD_EN}",
    re.IGNORECASE,
)
_EN_FORMER = re.compile(
    r"\b(?<!not )(?<!get )(?<!got )(?<!am )(?<!'m )(?<!are )(?<!be )(?<!been )used to\b"
    r"|\b(?:formerly|previously|back then|in the past)\b",
    re.IGNORECASE,
)

_CONTRAST = re.compile(r"^(?:但是?|不过|可是|(?:but|though|although)\b)", re.IGNORECASE)
# "I used to smoke, but I quit" / 「以前抽烟，后来戒了」: the quitting clause names no habit, the former
# one does; the quitting clause is read with it ("I quit smoking": that habit retired).
_FORMER_HABIT = {
    "en": re.compile(r"\bused to (?P<habit>smoke|drink|vape)\b", re.IGNORECASE),
    "zh": re.compile(r"(?P<habit>抽烟|吸烟|喝酒)"),
}
_EN_QUIT = r"(?:I )?(?:'ve |have )?(?:quit|stopped|gave up|given up)"
_ZH_QUIT = r"(?:戒(?:掉)?了|不(?:抽|喝)了)"
_QUIT_ALONE = {
    "en": re.compile(r"^(?:but |and )?" + _EN_QUIT + r"(?: (?:it|that))?(?: \w+){0,3}$", re.IGNORECASE),
    "zh": re.compile(r"^(?:但是?|不过|可是)?我?(?:后来|现在|已经|早就?|去年|前年|前几年)*" + _ZH_QUIT + "$"),
}
# The same in one clause: "I used to smoke but quit".
_QUIT_WITHIN = {
    "en": re.compile(r"\b(?:but|and) " + _EN_QUIT + r"\b", re.IGNORECASE),
    "zh": re.compile(r"(?:但是?|不过|后来|现在)[^，。]{0,4}?" + _ZH_QUIT),
}
_QUIT_READ_AS = {
    "smoke": "I quit smoking",
    "drink": "I quit drinking",
    "vape": "I quit vaping",
    "抽烟": "我戒烟了",
    "吸烟": "我戒烟了",
    "喝酒": "我戒酒了",
}


# A liking the user says has changed since: "I used to love coffee but now I can't stand it", 「我以前喜欢打篮球，
# 现在膝盖不好不打了」. What is said now is read of the thing the former state named (`_changed_since`).
_FORMER_LIKING = {
    "en": re.compile(
        r"\bused to (?:really |absolutely )?(?:love|like|enjoy|adore|hate|dislike|be into) (?P<item>[\w' -]{2,30}?)$",
        re.IGNORECASE,
    ),
    "zh": re.compile(
        r"(?:以前|之前|原来|过去|曾经)(?:很|特别|挺|超|最)?(?:喜欢|爱)(?P<verb>[打踢弹玩吃喝看听练])?(?P<item>[^，。]{1,8}?)$"
    ),
}
_SAID_OF_IT_NOW = {
    "en": re.compile(
        r"^(?:now |these days )?(?P<said>I .+?) (?:it|them)(?P<tail> anymore| any more| now| these days)?$",
        re.IGNORECASE,
    ),
    "zh": re.compile(r"不(?:再)?(?P<verb>[打踢弹玩吃喝看听练])?了$"),
}
# Where an English former state gives way to the present in one clause: "…coffee but now I…".
_EN_BUT_NOW = re.compile(r",? (?:but|and) (?=now\b)|, (?=now\b)", re.IGNORECASE)


def _changed_since(former: str, now: str, lang: Lang) -> str | None:
    """`now`, said right after the former liking `former`, as a statement of the thing it named ("I can't
    stand coffee", 「我不再打篮球了」), or None when `former` names no liking or `now` says nothing of it."""
    liked = _FORMER_LIKING[lang].search(former)
    said = _SAID_OF_IT_NOW[lang].search(now) if liked else None
    if liked is None or said is None:
        return None
    if lang == "en":
        return f"{said.group('said')} {liked.group('item')}{said.group('tail') or ''}"
    verb = liked.group("verb") or ""
    if said.group("verb") and verb and said.group("verb") != verb:
        return None
    return f"我不再{said.group('verb') or verb}{liked.group('item')}了"


def _former_habit(text: str, lang: Lang) -> str | None:
    """The habit a former-state clause names ("used to smoke": "smoke"), or None."""
    found = _FORMER_HABIT[lang].search(text)
    return found.group("habit").lower() if found else None


FAMILY = {
    # The partner's family, before the partner and the user's own (「老公的爸爸」 is no partner, "brother-in-law" no
    # brother); keyed family-in-laws (`builders.family_fact`).
    "in_laws": r"公公|婆婆|岳父|岳母|丈母娘|老丈人|大姑子|小姑子|小叔子|大伯子|小舅子|大舅子|大姨子|小姨子"
    # A sibling's or a child's partner: 嫂子, 姐夫, 女婿, 儿媳, 「我哥的老婆」, 「我闺女她老公」.
    r"|嫂子|弟媳|姐夫|妹夫|女婿|儿媳妇|儿媳|(?:哥|弟)(?:哥|弟)?(?:的|他)?(?:老婆|媳妇)"
    r"|(?:姐|妹)(?:姐|妹)?(?:的|她)?老公|(?:女儿|闺女)(?:的|她)?老公|儿子(?:的|他)?(?:老婆|媳妇)"
    r"|(?:老公|老婆|丈夫|妻子)(?:的|他|她)?(?:爸爸|妈妈|爸|妈|父母|爸妈|父亲|母亲)"
    r"|(?:father|mother|brother|sister|parents|son|daughter)s?-in-law|in-laws"
    r"|(?:husband|wife|partner|spouse)'s (?:mom|mother|dad|father|parents|brother|sister)",
    "partner": r"孩子他爸|孩子他妈|孩子她妈|孩子她爸|老婆|老公|媳妇|妻子|丈夫|太太|爱人|对象|男朋友|女朋友|未婚妻|未婚夫"
    r"|wife|husband|partner|spouse|girlfriend|boyfriend|fianc[ée]e?",
    # 「我家老大」, 「我家二宝」: one of the children by birth order (老大 alone is as often the boss).
    "children": r"女儿|闺女|儿子|孩子|(?<=我家)(?:老[大二三]|[大二三小]宝)|daughters?|sons?|kids|children|child|boys|girls|twins"
    r"|triplets|step(?:daughter|son|kid|child)s?|stepchildren",
    # 我妈 / 我爸 only after 我 (妈 alone opens "妈呀"); 老妈 / 老爸 anywhere.
    "parents": r"爸爸|妈妈|父亲|母亲|爸妈|父母|老妈|老爸|(?<=我)妈|(?<=我)爸|(?<=我的)妈|(?<=我的)爸|继父|继母|后妈|后爸"
    r"|step-?(?:dad|father|mom|mother|parents)|mom|mother|dad|father|parents",
    # 我姐 / 我哥 only after 我, as 我妈 (姐 alone opens 姐妹们, 哥 哥们).
    "siblings": r"哥哥|姐姐|弟弟|妹妹|(?<=我)[哥姐弟妹](?![们])|(?<=我的)[哥姐弟妹](?![们])"
    r"|(?:step-?|half-)?(?:brothers?|sisters?)|siblings?",
    "grandparents": r"爷爷|奶奶|外公|外婆|姥姥|姥爷|grandparents|grandma|grandmother|grandpa|grandfather|granny",
    "grandchildren": r"外孙女|外孙子|外孙|孙女|孙子|grandsons?|granddaughters?|grandkids|grandchildren|grandchild",
    # Nieces, nephews, cousins, aunts and uncles (叔叔 and 阿姨 are as often anyone's): family-relatives.
    "relatives": r"侄女|侄子|外甥女|外甥|表哥|表姐|表弟|表妹|堂哥|堂姐|堂弟|堂妹|舅舅|姑姑|姨妈|姑妈|小姨|大姨"
    r"|nieces?|nephews?|cousins?|aunts?|uncles?",
}
# "Diego, my older brother, is a welder": the member named first, then who they are, as "My older brother Diego is…".
_EN_NAMED_BEFORE_MEMBER = re.compile(
    r"^(?P<name>(?-i:[A-Z])[a-z]+), my (?P<who>(?:(?:older|younger|little|big|baby|twin|eldest|oldest|youngest) )?(?:"
    + "|".join(FAMILY.values())
    + r")), (?P<rest>(?:is|was|has|works|lives|loves|just|still|goes|plays|teaches|runs|owns)\b.+)$",
    re.IGNORECASE,
)
_ZH_SUBJECT = re.compile(
    # 「我有个三岁的儿子」: what the member is like may come before the family word; 「我两个孩子」 how many.
    r"^(?:(?:我的?|我家)(?:[两二三四五\d]个)?|我?有(?:[一两二三四五\d])?个(?:[^，。的我]{1,6}的)?)?(?P<family>"
    + "|".join(f"(?P<{g}>{p})" for g, p in FAMILY.items())
    + r")"
    r"|^(?:我的?|我们的?|我有(?:[一两二三四五\d])?个)?(?:好|最好的|老|一个)?(?P<other>朋友|闺蜜|哥们|同事|同学|室友|老板|领导|邻居|房东|前任|前妻|前夫|前男友|前女友|病人|患者|客户|学生|他们|她们|他|她)"
)
_EN_SUBJECT = re.compile(
    r"^(?:(?:my|our|one of (?:my|our|the))(?: (?:older|younger|little|big|baby|twin|eldest|oldest|youngest))?"
    r"|(?:I|we) have (?:a|an|one|two|three|four|\d+)(?: (?:older|younger|little|big|baby|twin|step))?"
    r"|(?:I|we) have twin)"
    r" (?P<family>" + "|".join(f"(?P<{g}>{p})" for g, p in FAMILY.items()) + r")\b"
    r"|^(?:(?:my|our|I have (?:a|an|one|two|three|\d+)) (?:(?:best|close|closest|good|old|oldest|childhood|new) )?"
    r"(?P<other>friend|colleague|coworker|co-worker|roommate|boss|neighbou?r|manager|teammate|classmate|buddy|pal|landlord"
    r"|ex|ex-wife|ex-husband|ex-boyfriend|ex-girlfriend|ex-partner|patient|client|customer|student|tenant)s?"
    r"|a (?:friend|colleague|coworker) of mine|he|she|they)\b",
    re.IGNORECASE,
)


# A clause that names its subject; one that does not ("是一名医生", "and allergic to nuts")
# continues the subject of the clause before it.
_ZH_EXPLICIT_SUBJECT = re.compile(r"^(?:我|本人|咱|你|您|他|她|它)")
_EN_EXPLICIT_SUBJECT = re.compile(
    r"^(?:I|I'm|I've|I'd|I'll|we|we're|we've|my|our|you|he|she|they|his|her|their)\b", re.IGNORECASE
)
# "她叫小雨", "名字叫大黄", "一只叫豆豆", "her name is Xiaoyu": a name for the subject just stated.
# Two named at once: 「一只叫团团一只叫圆圆」.
_ZH_ONE_OF = r"(?:[一另老][一二只个条]?|另一[只个条])"
_ZH_NAME = re.compile(
    rf"^(?:她|他|它)?(?:的)?(?:名字)?{_ZH_ONE_OF}?(?:叫做|名叫|叫)(?P<name>[^，,。\s的叫]{{1,8}}?)"
    rf"(?:{_ZH_ONE_OF}(?:叫做|名叫|叫)(?P<other>[^，,。\s的叫]{{1,8}}))?$"
)
_EN_NAME = re.compile(
    r"^(?:(?:her|his|its|their) names? (?:is|are)|(?:she|he|it)(?:'s| is) (?:called|named))"
    r" (?P<name>(?-i:[A-Z])[\w'-]*(?: (?:and )?(?-i:[A-Z])[\w'-]*)?)$",
    re.IGNORECASE,
)
# Explicit forget requests: what follows is what to forget.
_ZH_FORGET = re.compile(
    r"^(?:请|麻烦)?(?:你)?(?:能不能|能|可以|可不可以)?(?:帮我)?(?:把)?(?:忘掉|忘记|忘了|删掉|删除|清除|清掉|别再?记[着住]?|不要再?记[着住]?|不用再?记[着住]?)"
    r"(?:关于)?(?:我(?:之前|以前)?(?:说过|提过|讲过|告诉过你)的?)?(?P<rest>.+?)(?:的?(?:所有|全部|一切))?(?:这件事|这条记忆|这条|的事情?|的信息|的记忆|信息|记忆)?(?:了|吧|啊|吗|好吗)?$"
    r"|^(?:请|麻烦)?(?:你)?(?:帮我)?把(?:关于)?(?P<rest2>.+?)(?:这件事|这条记忆|这条|的事情?|的信息|的记忆|信息|记忆)?"
    r"(?:删掉|删除|删了|清除|忘掉|忘了)(?:吧|了)?$"
)
_EN_FORGET = re.compile(
    r"^(?:(?:can|could|would|will) you (?:please )?|please )?"
    r"(?:forget|delete|remove|erase|stop remembering|don't remember|do not remember)"
    r"(?: (?:that|about|what you know about|everything (?:you know )?about|the (?:memory|note|fact) (?:about|of|that)"
    r"|anything about|what I (?:said|told you) about|I (?:said|told you)(?: that)?))*"
    r" (?P<rest>.+?)(?:,? please)?$",
    re.IGNORECASE,
)


def forget_request(text: str, lang: Lang) -> str | None:
    """What an explicit forget request asks to forget ("请忘掉我的职业信息" -> "我的职业"), or None."""
    match = (_ZH_FORGET if lang == "zh" else _EN_FORGET).match(text)
    if not match:
        return None
    rest = (match.group("rest") or match.groupdict().get("rest2") or "").strip(" ，,")
    return rest or None


# A family member referred to by one person's pronoun: whom 她 / 他, "she" / "he" can stand for.
_FEMALE = re.compile(
    r"^(?:女儿|闺女|妈妈|母亲|老妈|妈|老婆|妻子|太太|女朋友|未婚妻|姐姐|妹妹|奶奶|外婆|姥姥|孙女|外孙女"
    r"|daughter|mom|mother|wife|girlfriend|fianc[ée]e|sister|grandma|grandmother|granny|granddaughter)$",
    re.IGNORECASE,
)
_MALE = re.compile(
    r"^(?:儿子|爸爸|父亲|老爸|爸|老公|丈夫|男朋友|未婚夫|哥哥|弟弟|爷爷|外公|姥爷|孙子|外孙|外孙子"
    r"|son|dad|father|husband|boyfriend|fianc[ée]|brother|grandpa|grandfather|grandson)$",
    re.IGNORECASE,
)
_ZH_PRONOUN = re.compile(r"^(?P<pronoun>她|他)(?![们])")
_EN_PRONOUN = re.compile(r"^(?:(?P<pronoun>she|he)(?P<is>'s| is)?|(?P<possessive>her|his))\b", re.IGNORECASE)


# (subject, family word, name or None) of one family member: ("family:partner", "wife", "Sarah").
Member = tuple[str, str, str | None]


# "My wife Sarah", "our son Leo", "I have a son named Noah", "I have a daughter, Emma": the name said with the
# family word; 「我女儿叫小雨」, 「我有个女儿叫小雨」 in Chinese.
_EN_MEMBER_NAME = re.compile(
    r"^(?:(?:my|our) (?:[\w-]+ )?(?P<word>[a-z]+)|(?:I|we) have (?:a|an|one) (?:[\w-]+ )?(?P<had>[a-z]+)(?:,| named| called))"
    r" (?P<name>(?-i:[A-Z][a-z]+))\b",
    re.IGNORECASE,
)
_ZH_MEMBER_NAME = re.compile(
    r"^(?:我的?|我们的?|我有(?:一)?个|我们有(?:一)?个)(?P<word>[^，。叫]{1,3}?)(?:的名字)?(?:叫做|名叫|叫)(?P<name>[\u4e00-\u9fff]{2,3})$"
)
# Children named in a list ("I have 2 kids: Emma (7) and Jack (4)"): each name stands for one of them, kept in
# the member's name as "Emma|Jack"; a clause opening with one is said of that child ("My child Jack is…").
_EN_NAME_IN_LIST = re.compile(r"(?<=[\s:,(])(?-i:[A-Z][a-z]+)\b")
_ONE_OF_MANY = {"kids": "child", "children": "child", "sons": "son", "daughters": "daughter"}


def _member_word(said_name: re.Match[str]) -> str:
    """The family word a name was said with (`_EN_MEMBER_NAME`, `_ZH_MEMBER_NAME`)."""
    return said_name.groupdict().get("word") or said_name.groupdict().get("had") or ""


# One of the children by birth order, said alone: 「老大」, 「二宝」.
_BIRTH_ORDER = re.compile(r"^(?:老[大二三]|[大二三小]宝)")


def _pronoun_resolved(text: str, lang: Lang, member: Member | None) -> str | None:
    """`text` with its leading "she" / 她 (or "he" / 他), or the member's name, put back as the
    family member it stands for ("She loves drawing" after "My daughter is 5" -> "My daughter loves
    drawing"; "Sarah got a new job" after "My wife Sarah…" -> "My wife got a new job"), or None when
    `text` opens with neither or `member` is not one person of the pronoun's gender."""
    if not member:
        return None
    if lang == "zh" and member[0] == "family:children" and _BIRTH_ORDER.match(text):
        return f"我家{text}"  # 「老大对花生过敏」 after 「我有两个孩子，老大8岁，老二5岁」
    _, word, name = member
    if name and "|" in name:
        # One of the children named in a list; a pronoun cannot say which.
        one = next((n for n in name.split("|") if lang == "en" and re.match(rf"{n}(?:'s| is)?\b", text)), None)
        return f"My {_ONE_OF_MANY.get(word.lower(), word.lower())} {one}{text[len(one) :]}" if one else None
    if name and re.match(rf"{re.escape(name)}" + ("" if lang == "zh" else r"(?:'s| is)?\b"), text):
        rest = text[len(name) :]
        return f"我{word}{rest}" if lang == "zh" else f"My {word.lower()}{rest}"
    match = (_ZH_PRONOUN if lang == "zh" else _EN_PRONOUN).match(text)
    if not match:
        return None
    pronoun = (match.groupdict().get("possessive") or match.group("pronoun")).lower()
    if not (_FEMALE if pronoun in ("她", "she", "her") else _MALE).match(word):
        return None
    rest = text[match.end() :]
    if lang == "zh":
        return f"我{word}{rest}"
    if match.groupdict().get("possessive"):
        return f"My {word.lower()}'s{rest}"  # "Her favorite color is pink"
    return f"My {word.lower()}{' is' if match.group('is') else ''}{rest}"


# Someone of someone's: 「我儿子的同学」, 「老婆的同事」, "my son's friend", "my wife's boss" — neither the user nor family.
_ZH_SOMEONES = re.compile(
    r"^(?:我的?|我家)?(?:儿子|女儿|孩子|老婆|老公|妻子|丈夫|太太|爱人|对象|男朋友|女朋友|爸爸|妈妈|父母|爸|妈|哥哥|姐姐|弟弟"
    r"|妹妹|哥|姐|弟|妹|爷爷|奶奶|外公|外婆|朋友|同事|同学|老板|领导|邻居|室友|闺蜜)的"
    r"(?:同学|朋友|同事|老师|老板|领导|室友|邻居|男朋友|女朋友|对象|闺蜜|前任|病人|客户|学生|孩子|女儿|儿子|猫|狗)"
)
# People in general: 「程序员一般都用Mac」, 「年轻人都喜欢熬夜」 ("Most developers use VS Code" names no "I").
_ZH_PEOPLE = re.compile(
    r"^(?:很多|大部分|大多数|有些|一些|不少|好多|所有的?|一般)?(?:人们?|大家|别人|年轻人|老人|程序员|开发者|学生|女生|男生|孩子们|小孩)"
    r"(?:们)?(?:都|一般|通常|大多|基本上?|往往|普遍|大都|好像|总是)"
)
_EN_SOMEONES = re.compile(
    r"^(?:my|our) (?!(?:husband|wife|partner|spouse)'s (?:mom|mother|dad|father|parents|brother|sister)\b)[\w-]+(?:'s|s') "
    r"(?:best |close |new |old )?(?:friend|boss|colleague|coworker|co-worker|teacher"
    r"|classmate|roommate|girlfriend|boyfriend|partner|ex|mom|dad|mother|father|parents|sister|brother|doctor"
    r"|neighbou?r|kids?|son|daughter|cat|dog)s?\b",
    re.IGNORECASE,
)


def subject_of(text: str, lang: Lang) -> str:
    """Whom the clause is about: "self", "family:<group>" or "other"."""
    if (_ZH_SOMEONES if lang == "zh" else _EN_SOMEONES).match(text) or (lang == "zh" and _ZH_PEOPLE.match(text)):
        return "other"
    match = (_ZH_SUBJECT if lang == "zh" else _EN_SUBJECT).match(text)
    if not match:
        return "self"
    if match.group("family"):
        group = next(g for g in FAMILY if match.group(g))
        return f"family:{group}"
    return "other"


# What a household eats is what the user eats: "We're vegetarian", "My wife and I are vegan", "We don't eat pork",
# "Our family keeps kosher", 「我们家不吃猪肉」 are read as said of the user (`_household_as_user`).
_EN_PARTNER = r"(?:wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|spouse)"
_EN_WE = r"(?:we|my " + _EN_PARTNER + r" and (?:I|me)|me and my " + _EN_PARTNER + ")"
_EN_HOUSEHOLD_CHILDREN = re.compile(
    r"^we(?: have|'ve got| have got) (?=(?:(?:a|an|one|two|three|four|\d+)\b[\w -]*?\b)?"
    r"(?:toddlers?|baby|babies|newborn|kids?|children|child|sons?|daughters?|twins|triplets|boys|girls|teenagers)\b)",
    re.IGNORECASE,
)
_EN_HOUSEHOLD_DIET = re.compile(
    r"^(?:"
    + _EN_WE
    + r"(?:'re| are)|our (?:family|household) is)(?: both| all)? (?P<diet>vegetarian|vegan|pescatarian)s?\b"
    r"|^(?:"
    + _EN_WE
    + r"|our (?:family|household))(?: both| all)? (?P<verb>don't eat|do not eat|never eat|keeps?|eats?|avoids?)"
    r" (?!out\b)(?=\w)",  # "We don't eat out much" names no food
    re.IGNORECASE,
)
_ZH_HOUSEHOLD_DIET = re.compile(r"^我们?家(?:里)?(?:人)?(?=(?:都|从来|一直|基本)?(?:不吃|不喝|不碰|吃素|忌口))")


# "My wife and I live in Denver": where the couple lives is where the user does.
_EN_COUPLE_AS_USER = re.compile(
    r"^my (?:wife|husband|partner|boyfriend|girlfriend|fianc[eé]e?|spouse) and I (?=(?:just |recently |now )?"
    r"(?:live|moved|rent|own)\b(?! in together| together))",
    re.IGNORECASE,
)


def _household_as_user(text: str, lang: Lang) -> str:
    """`text` with a household's diet or children said of the user ("We don't eat pork" -> "I don't eat pork", "We
    have a toddler" -> "I have a toddler"), and where the couple lives ("My wife and I live in Denver")."""
    if lang == "zh":
        return _ZH_HOUSEHOLD_DIET.sub("我", text)
    text = _EN_COUPLE_AS_USER.sub("we ", text)
    text = _EN_HOUSEHOLD_CHILDREN.sub("I have ", text)
    said = _EN_HOUSEHOLD_DIET.match(text)
    if not said:
        return text
    if said.group("diet"):
        return f"I'm {said.group('diet')}{text[said.end() :]}"
    verb = (
        re.sub(r"s$", "", said.group("verb"))
        if said.group("verb").lower() in ("keeps", "eats", "avoids")
        else said.group("verb")
    )
    return f"I {verb} {text[said.end() :]}"


# A food or drink said first, as Chinese often puts it: 「香菜我不吃」, 「咖啡我不喝了」, 「辣的我现在也能吃了」. Not a time,
# a pronoun or a meal, whose 「晚饭我不吃了」 is tonight's, nor words with a verb of their own (「医生不让我喝了」).
_ZH_TOPIC_FIRST = re.compile(
    r"^(?P<topic>(?!今天|昨天|明天|现在|最近|以前|平时|这|那|什么|他|她|它|你|我|饭|早饭|午饭|晚饭|早餐|午餐|晚餐|夜宵)"
    r"(?:(?![让叫要不没说把被给帮会想能在是都也就还])[\u4e00-\u9fffA-Za-z]){1,6}?)(?P<de>的)?(?P<who>我们家|我家|我)"
    # 「羊肉我一口都不吃」: the emphasis says no more than 「我不吃羊肉」, and is left out.
    r"(?:(?:一点儿?|一口|一滴|根本|完全|绝对|压根儿?)(?:都|也)?)?"
    r"(?P<adverbs>(?:现在|已经|早就|也|都|从来|一直|平时|真的|实在|还是|再也|就)*)(?:是)?"
    # 「猪肉我是不能吃的」: the 是…的 frame says no more than 「我不能吃猪肉」.
    r"(?P<modal>不太|不|没法|不能|不敢|能|可以|敢|很少)?(?P<verb>吃|喝|碰|抽|戒掉?)(?P<end>不了|了|过)?(?:的)?$"
)


# A name said first: 「阿杰是我男朋友」, 「咪咪是我养的猫」 (not 「他是我男朋友」: a pronoun is no name).
_ZH_NAME_FIRST = re.compile(
    r"^(?P<name>(?!他|她|它|这|那|谁|我|你)[\u4e00-\u9fff]{2,3})(?:就)?是我(?:的|家的?|养的)?"
    r"(?P<who>男朋友|女朋友|老婆|老公|妻子|丈夫|太太|未婚妻|未婚夫|儿子|女儿|哥哥|姐姐|弟弟|妹妹|猫|狗|猫咪|狗狗)$"
)
# An allergen said first: 「芒果我过敏」, 「海鲜我从小就过敏」 (「我不过敏」 denies, and is read as it is).
_ZH_ALLERGEN_FIRST = re.compile(
    r"^(?P<topic>(?!是|很|也|不|有|会|容易|这|那|什么|他|她|它|你|我)[^，。对的我]{1,6}?)(?P<who>我)"
    r"(?P<adverbs>(?:从小|一直|天生|就|也|都|有点|严重)*)过敏(?:的)?$"
)


def _topic_put_after_its_verb(text: str, lang: Lang) -> str:
    """`text` with a food or drink said first put after its verb: 「香菜我不吃」 -> 「我不吃香菜」, an allergen
    after 对: 「芒果我过敏」 -> 「我对芒果过敏」, and a name said first after whom it names: 「阿杰是我男朋友」 ->
    「我的男朋友叫阿杰」, read as the usual order (and stored in the same words)."""
    named = _ZH_NAME_FIRST.match(text) if lang == "zh" else None
    if named is not None:
        return f"我的{named.group('who')}叫{named.group('name')}"
    allergen = _ZH_ALLERGEN_FIRST.match(text) if lang == "zh" else None
    if allergen is not None:
        return f"{allergen.group('who')}{allergen.group('adverbs')}对{allergen.group('topic')}过敏"
    said = _ZH_TOPIC_FIRST.match(text) if lang == "zh" else None
    if said is None:
        return text
    topic = said.group("topic") + (said.group("de") or "")
    verb, end = said.group("verb"), said.group("end") or ""
    if end == "不了":  # 「牛奶我喝不了」 -> 「我喝不了牛奶」
        verb, end = f"{verb}不了", ""
    return f"{said.group('who')}{said.group('adverbs')}{said.group('modal') or ''}{verb}{topic}{end}"


_EN_WEEKDAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b")


def _sentence_start_lowered(words: str) -> str:
    """`words` that opened a sentence, moved inside one: "Every Saturday" -> "every Saturday" (a day keeps its capital)."""
    return _EN_WEEKDAY.sub(lambda day: day.group(0).capitalize(), words.lower())


# 「我这人不太能吃辣」, 「我这个人吧，…」: the user.
_ZH_THIS_PERSON = re.compile(r"^我这(?:个)?人(?:吧|呢|啊|嘛)?[，,]?")
# "I'm kind of a night owl", "I'm a bit of a foodie": what the user is, said with a hedge.
_EN_HEDGED_BEING = re.compile(
    r"^I(?:'m| am) (?:kind of|sort of|kinda|sorta|basically|pretty much|definitely|totally|literally|a bit of"
    r"|something of|somewhat of) (?=an? )",
    re.IGNORECASE,
)


def _strip_discourse(text: str, lang: Lang) -> str:
    """`text` without its discourse words, a leading frequency word put after the subject."""
    pattern = _ZH_DISCOURSE if lang == "zh" else _EN_DISCOURSE
    previous = None
    while previous != text:
        previous, text = text, pattern.sub("", text, count=1).strip()
    if lang == "zh":
        text = _ZH_THIS_PERSON.sub("我", text)
        text = _ZH_TIME_KEPT_FOR.sub(r"我\g<when>\g<what>", text)
        return _ZH_ADVERB_FIRST.sub(lambda m: f"我{m.group('adv')}", text)
    text = _EN_HEDGED_BEING.sub("I'm ", _EN_AFTERTHOUGHT.sub("", text))
    text = _EN_CLEFT.sub(lambda m: f"I'm {m.group('what').lower()} {m.group('item')}", text)
    text = _EN_INTRODUCED.sub("I'm ", text)
    text = _EN_TIME_FIRST.sub(lambda m: f"{m.group('rest')} {_sentence_start_lowered(m.group('when'))}", text)
    text = _EN_PET_NAMED.sub(
        lambda m: f"I have a {(m['kind'] or m['kind_named']).lower()} named {m['name'] or m['named']}", text
    )
    text = _EN_MY_PET_IS.sub(r"I have a pet \g<kind>", text)
    text = _EN_MANAGER_NAMED.sub(r"I report to \g<name>", text)
    text = _EN_IS_WHAT_I.sub(
        lambda m: f"I {m['verb']} {re.sub(r'^(My|An?|The) ', _lowered, m['what'])}{m['rest']}", text
    )
    text = _EN_DAY_KEPT_FOR.sub(
        lambda m: f"I do {m['what'] or m['doing']} on {_capitalised_days(m['when'] or m['spent'])}", text
    )
    # "Right now I'm learning ASL" is "I'm currently learning ASL" (the filters let that "right now" through).
    return _EN_ADVERB_FIRST.sub(
        lambda m: f"{m.group('me')} {'currently' if m['adv'].lower() == 'right now' else m['adv'].lower()} ", text
    )


def _lowered(word: re.Match[str]) -> str:
    """A sentence's first word said inside one: "A split keyboard is what I use" -> "I use a split keyboard"."""
    return word.group(0).lower()


def _capitalised_days(days: str) -> str:
    """Days of the week with their capital, in the plural: "saturday mornings" -> "Saturday mornings", "Sunday" ->
    "Sundays"; "Weekends" -> "weekends"."""
    day, _, part = days.lower().partition(" ")
    if day.startswith("weekend"):
        return days.lower()
    day = day.capitalize() if day.endswith("s") or part else f"{day.capitalize()}s"
    return f"{day} {part}".strip()


def _unquoted_sentences(quote: re.Match[str]) -> str:
    """A quoted sentence removed (a text to translate states nothing of the user); a quoted word or
    short phrase kept, quotes and all: it is what a rule is about ('Never use the word "delve"',
    'Never start your answer with "Great question"', 「回答不要用"您"」)."""
    inner = next(group for group in quote.groups() if group is not None)
    if has_han(inner):
        # 「我是素食者」 is a sentence; “你” alone is the word (「用“你”就行」), and so are words listed (“首先、其次、最后”,
        # “首先……其次……”).
        words = [word for word in re.split(r"[、…]+", inner) if word]
        word = len(inner) == 1 or (
            bool(words) and all(len(word) <= 4 for word in words) and not re.search(r"[我你，。！？]", inner)
        )
    else:
        # Up to three words, none the user's "I" ("I love you" to translate is a sentence).
        word = 0 < len(inner) <= 30 and len(inner.split()) <= 3 and not re.search(r"[,.!?]|\b(?:I|me|my|we)\b", inner)
    return quote.group(0) if word else " "


# A text handed over to work on, after its colon: "Translate this: I am vegetarian", "How do you say: …",
# 「翻译一下：我喜欢吃苹果」. What follows the colon is the text, not a statement of the user's.
_TEXT_HANDED_OVER = re.compile(
    r"^\s*(?:please\s+)?(?:(?:can|could) you\s+)?(?:translate|proofread|rewrite|rephrase|paraphrase|correct|polish|summari[sz]e"
    r"|how do (?:you|I) say)\b[^:：\n]{0,40}[:：]"
    r"|^\s*(?:请|麻烦你?)?(?:帮我)?(?:翻译|润色|改写|纠正|校对|总结)(?:一下)?[^:：\n]{0,12}[:：]",
    re.IGNORECASE,
)


def _sentences(message: str) -> Iterator[tuple[str, bool]]:
    """(sentence, ends with a question mark) for each sentence of `message` (a text handed over to
    translate or rewrite, after its colon, is none of them)."""
    handed_over = _TEXT_HANDED_OVER.match(message)
    if handed_over:
        message = message[: handed_over.end()]
    for match in _SENTENCE.finditer(_QUOTED.sub(_unquoted_sentences, message)):
        chunk = match.group(0)
        for sentence in _EN_FULL_STOP.split(chunk):
            body = sentence.strip().rstrip("。！？!?；;.… \n")
            said_as = _SAID_AS_WHO.match(body)
            if said_as:
                yield _said_as_who(said_as), False
                body = body[said_as.end() :]
            if body:
                yield body, sentence.rstrip().endswith(("?", "？"))


# Who the user is, said before what they ask or say: "As a vegetarian, what should I eat for protein?", "As someone
# who's lactose intolerant, …", 「作为一个素食者，我该怎么补充蛋白质？」 (a statement of its own, "I'm a vegetarian").
# Not what the user was ("As a kid, …") nor "as a" of anything but a person ("As a result, …").
_SAID_AS_WHO = re.compile(
    r"^As (?P<article>an?) (?!(?:kid|child|teen|teenager|boy|girl|baby|young|little|result|rule|matter|whole|reminder"
    r"|side|note|bonus|joke|treat|favou?r|test|follow-up|thank|gift|reward|precaution|consequence|start|heads|quick"
    r"|first|last|general|courtesy|backup|compromise|fallback)\b)(?P<who_en>[\w'-]+(?: [\w'-]+){0,4}?),\s*(?=\S)"
    r"|^As (?:someone|somebody|a person|one) who(?P<verb> is|'s| has| have)? (?P<what_en>[\w' -]{2,40}?),\s*(?=\S)"
    r"|^(?:作为|身为)(?:一[个名位])?(?P<who_zh>(?!回报|例子|补充|参考|交换|条件|代价|结果)[^，,。]{2,12}?)[，,]\s*(?=\S)",
    re.IGNORECASE,
)


def _said_as_who(said: re.Match[str]) -> str:
    """The statement `_SAID_AS_WHO` found, in the first person: "I'm a vegetarian", "I have celiac disease"."""
    if said["who_zh"]:
        return f"我是{said['who_zh']}"
    if said["who_en"]:
        return f"I'm {said['article'].lower()} {said['who_en']}"
    verb = (said["verb"] or "").strip().lower()
    if verb in ("is", "'s"):
        return f"I'm {said['what_en']}"
    if verb in ("has", "have"):
        return f"I have {said['what_en']}"
    first, _, rest = said["what_en"].partition(" ")
    return f"I {_EN_FIRST_PERSON.get(first.lower(), _first_person_verb(first))} {rest}".rstrip()


# The verbs of "someone who …" that are not a plain -s away from the first person.
_EN_FIRST_PERSON = {"doesn't": "don't", "does": "do", "isn't": "am not", "hasn't": "haven't"}


def _first_person_verb(verb: str) -> str:
    """`verb` of the third person in the first: "loves" -> "love", "goes" -> "go", "watches" -> "watch"."""
    if verb.endswith("ies"):
        return f"{verb[:-3]}y"
    if verb.endswith(("ches", "shes", "sses", "xes", "oes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb


# "I'm vegetarian", "I cook": a short part that is a statement of its own, not a subject.
_EN_SHORT_STATEMENT = re.compile(r"^(?:I|we)(?:'\w+|\s+\w+)", re.IGNORECASE)


def _verbs_given_a_subject(parts: list[str]) -> list[str]:
    """`parts` with a verb split off without its subject (`_EN_VERB_WITHOUT_I`: "and became a chef") given the subject
    of the part before it: "I" after the user's own ("I quit accounting and became a chef"), "My son" after the son's
    ("My son quit being an electrician and became a firefighter"), "My friend" after a friend's (then not stored)."""
    given: list[str] = []
    for part in parts:
        said = _EN_VERB_WITHOUT_I.match(part)
        if said is not None:
            someone = _EN_SUBJECT.match(given[-1]) if given else None
            named = someone is not None and someone.group(0).lower().startswith(("my ", "our "))
            subject = someone.group(0) if named else "I"
            part = f"{subject} {said.group('also') or ''}{said.group('verb')} {part[said.end() :]}"
        given.append(part)
    return given


def _subject_carried(parts: list[str]) -> list[str]:
    """`parts` with a doing said without its subject after an "I'm" part of the sentence given it back:
    "I'm 28, vegan, and training for my first marathon" -> "…", "I'm training for my first marathon"."""
    carried: list[str] = []
    for part in parts:
        said = _EN_DOING_WITHOUT_SUBJECT.match(part)
        if said is not None and not part.lower().startswith("i") and any(_EN_I_AM.match(p) for p in carried):
            part = f"I'm {part[said.end() :]}"
        carried.append(part)
    return carried


def _joined_short_subjects(parts: list[str]) -> list[str]:
    """`parts` with a part of one or two words that states nothing put back before the "and …"
    part after it: "My husband and I have been married" is one clause, "I'm vegetarian and I
    live in Berlin" two."""
    joined: list[str] = []
    for part in parts:
        if (
            joined
            and part.lower().startswith("and ")
            and len(joined[-1].split()) <= 2
            and not _EN_SHORT_STATEMENT.match(joined[-1])
            and not _EN_BARE_CONDITION.match(joined[-1])  # "…, vegan, and training for…": the diet is one
        ):
            joined[-1] = f"{joined[-1]} {part}"
        else:
            joined.append(part)
    return joined


# What the replies a rule is for are about, said before the rule: 「以后提到日期，…」, 「以后你给我列步骤的时候，…」 (carried
# to the rule, `_STANDING_ALONE`; the reply slots read it before their value, `table`).
ZH_REPLIES_ABOUT = r"(?:以后|今后)(?:每次)?(?:你)?(?:给我|帮我|跟我)?(?:列|写|提到|说到|讲到|谈到|涉及到?)[^，。]{1,8}?(?:的时候|时|的话)?"
# A clause that is only a "from now on" ("从现在起，不要给我推荐…"), or only when a rule applies (「我问菜谱的时候，
# 都按素食来」), governs the clause after it.
_STANDING_ALONE = re.compile(
    r"^(?:从现在(?:开始|起)|从今(?:天|以后)(?:开始|起)?|以后|今后|from now on|going forward"
    r"|(?:以后)?(?:每次)?我?(?:问|找|查|要)[^，。]{1,8}的时候|(?:以后)?(?:每次)?我?问[^，。]{1,8}的话"
    r"|(?:如果|要是)我(?:问(?:你)?|让你|请你|找你)[^，。]{1,8}"
    # 「以后推荐餐厅的时候，不要推荐太贵的」: the kind of reply the rule after the comma is for.
    r"|(?:如果|要是)?(?:以后|今后)?(?:每次)?(?:你)?(?:给我|帮我)?(?:推荐|介绍|安排|规划|写|解释)[^，。]{1,8}(?:的时候|的话)"
    # 「以后回答我之前，先把我的问题复述一遍」, 「以后发网址给我，请发国内能打开的」: the answers the rule after the comma is
    # for.
    r"|(?:以后|今后|每次)(?:你)?(?:给我|帮我)?(?:回答|回复|答题|举例子?)(?:我)?(?:的问题)?(?:的时候|时|之前|前|的话)"
    r"|(?:以后|今后)(?:你)?(?:发|给)[^，。]{1,6}给我"
    # 「以后你给我列步骤的时候，…」, 「以后提到日期，…」, 「以后给我讲新概念的时候，…」: the replies the rule after the comma is
    # for.
    r"|" + ZH_REPLIES_ABOUT + r"|(?:以后|今后)(?:每次)?(?:你)?(?:给我|帮我|跟我)[^，。]{1,10}?(?:的时候|时|的话))$",
    re.I,
)


# A part that is a statement of the user's own (「我喜欢川菜」), not what they want of the assistant (「我希望…」).
_OWN_STATEMENT = re.compile(r"^\s*我(?!希望|要|想要|需要|想让你|要求)")


# An age said on its own after a family member: 「（我女儿叫小雨，）今年5岁」.
_ZH_AGE_ALONE = re.compile(r"^(?:今年|现在|已经|刚|刚刚|马上)*(?:满)?[\d一二两三四五六七八九十]+(?:周)?(?:岁|个月)")


def _standing_words_carried(parts: list[str]) -> list[str]:
    """`parts` with a part that is only a "from now on" put before the part after it."""
    carried: list[str] = []
    pending = ""
    for part in parts:
        if _STANDING_ALONE.match(part.strip(" ，,")):
            pending = f"{pending}{part.strip(' ，,')}，"
            continue
        if pending and _OWN_STATEMENT.match(part):
            # 「推荐餐厅的话，我喜欢川菜」: a liking of the user's own, not the rule of the condition before it.
            carried.append(pending.rstrip("，"))
            pending = ""
        carried.append(f"{pending}{part}" if has_han(part) or not pending else f"{pending[:-1]}, {part}")
        pending = ""
    return carried + ([pending.rstrip("，")] if pending else [])


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def _language(text: str) -> Lang:
    """Chinese when Chinese characters outnumber Latin words, or are as many and come first: "I live
    in 北京", "I'm from 成都" and "My wife 小美 is a teacher" are English sentences with a Chinese name,
    「我对peanut过敏」 and 「VS Code是我最喜欢的IDE」 Chinese ones with English words."""
    han, latin = len(HAN_CHAR.findall(text)), len(_LATIN_WORD.findall(text))
    if han != latin:
        return "zh" if han > latin else "en"
    first = re.search(f"[{HAN}A-Za-z]", text)
    return "zh" if first is not None and HAN_CHAR.match(first.group()) else "en"


def family_member_after(clauses: list[Clause], before: Member | None) -> Member | None:
    """The one family member last named ("family:children", "女儿", None) once `clauses` are said
    after `before`: whom a "she" or a name opening the user's next turn may mean. A clause about
    someone else (a friend) leaves no one; clauses about the user leave `before` as it was."""
    member = before
    for clause in clauses:
        if clause.subject == "other":
            member = None  # "…, my friend is a nurse": a "she" next is not the daughter
        elif clause.subject.startswith("family:") and clause.member:
            member = (clause.subject, clause.member, clause.member_name)
        elif clause.name and member:
            member = (member[0], member[1], clause.name)  # "…，她叫小雨": the member's name
    return member


def _sport_said_whole(match: re.Match[str]) -> str:
    """`_ZH_SPORT_VERB_SPLIT`'s sport said whole: 「游两次泳」 -> 「游泳两次」, 「跑五公里」 -> 「跑步五公里」."""
    if match["distance"]:
        return f"跑步{match['distance']}"
    return ("游泳" if match["swim"] else "跑步") + (match["count"] or "")


def split_clauses(message: str, member_before: Member | None = None) -> list[Clause]:
    """The first MAX_CLAUSES clauses of `message`, each marked with whether and why it may not be read.

    `member_before`: the family member the user's turn before ended on (`family_member_after`),
    whom a pronoun opening this turn refers to ("我女儿今年5岁" then "她喜欢画画").
    """
    clauses: list[Clause] = []
    member = member_before
    for sentence_index, (sentence, asked) in enumerate(_sentences(message)):
        lang = _language(sentence)
        if lang == "en":
            sentence = _EN_DOCTORS_ORDERS.sub(lambda m: f"My doctor told me to avoid {m.group('what')}", sentence)
            sentence = _EN_TIME_LEAD_COMMA.sub(r"\g<when> ", sentence)
            sentence = _EN_DOSE_CHANGED_BY_THEM.sub("My doctor", sentence)
            sentence = _EN_TRADED_IN.sub(r"I sold my \g<old>, and I got a \g<new>", sentence)
            sentence = _EN_NAMED_BEFORE_MEMBER.sub(r"My \g<who> \g<name> \g<rest>", sentence)
        if lang == "zh":
            sentence = _ZH_SPORT_VERB_SPLIT.sub(_sport_said_whole, sentence)
            sentence = _ZH_KIDS_SAID_AS_WA.sub("孩子", sentence)
            sentence = _ZH_FOR_FAITH_FIRST.sub(lambda m: f"{m['who'] or '我'}{m['avoidance']}，宗教原因", sentence)
            sentence = _ZH_BIRTHDAY_TODAY.sub(r"今年\g<age>岁了", sentence)
            sentence = _ZH_BROUGHT_OVER.sub(r"我\g<who>从\g<place>搬过来", sentence)
            sentence = _ZH_LEARNING_TO_A_LEVEL.sub(r"我\g<language>学到\g<level>了", sentence)
            sentence = _ZH_GIVEN_TO_SAID_FIRST.sub(r"我\g<how>给\g<who>", sentence)
            sentence = _ZH_PAYMENT_SAID_AFTER.sub("房贷，现在每月房贷还", sentence)
            sentence = _ZH_OPTIONS_SAID_AFTER.sub(r"推荐\g<what>给我最多\g<count>个", sentence)
            sentence = _ZH_PLAIN_YOU.sub("回复里用你不用您", sentence)
            sentence = _ZH_TAKEN_TO_SAID_AS_A_CHOICE.sub(r"\g<verb>了", sentence)
            sentence = _ZH_SHARING_WITH.sub(r"我和\g<count>个室友合租", sentence)
            sentence = _ZH_DRINKING_LIMIT_SAID_AFTER.sub(r"我\g<drink>最多喝\g<amount>", sentence)
            sentence = _ZH_HOBBY_FOR_YEARS.sub(r"我\g<verb>\g<item>\g<verb>了\g<years>年", sentence)
            sentence = _ZH_ROOMS_THEN_AREA.sub(r"\g<whose>是\g<area>平的\g<rooms>居室", sentence)
        parts = [p.strip() for p in (_ZH_CLAUSE if lang == "zh" else _EN_CLAUSE).split(sentence)]
        parts = _joined_short_subjects([p for p in parts if p])
        if lang == "en":
            parts = [_EN_BARE_CONDITION.sub(lambda m: f"I'm {(m.group(1) or m.group(2)).lower()}", p) for p in parts]
            parts = _verbs_given_a_subject(parts)
            parts = [_EN_NO_DRUG.sub(lambda m: f"I can't take {m.group('drug')}", p) for p in parts]
            parts = [
                _EN_DONT_DO.sub(
                    lambda m: f"I don't eat {m['foods']}" if m["foods"] else f"I don't drink {m['drinks']}", p
                )
                for p in parts
            ]
            parts = _subject_carried(parts)
        elif parts and subject_of(parts[0], "zh") == "self":
            parts = [_ZH_BARE_CONDITION.sub(lambda m: f"我有{m.group('condition')}", p) for p in parts]
            parts = [
                _ZH_SPORT_SAID_BY_ITS_VERB.sub(lambda m: f"不{m['again'] or ''}{_ZH_SPORTS_BY_VERB[m['verb']]}了", p)
                for p in parts
            ]
        parts = _standing_words_carried(parts)
        tainted: str | None = None
        imagined = False
        previous_subject = "self"
        quit_habit: str | None = None  # the habit of a former-state clause just read
        former_said: str | None = None  # the text of a former-state clause just read
        for index, raw in enumerate(parts):
            if len(clauses) >= MAX_CLAUSES:
                return clauses
            lang = _language(raw)
            if len(raw) > MAX_CLAUSE_CHARS:
                clauses.append(Clause(text=raw[:MAX_CLAUSE_CHARS], lang=lang, skip="too long to be one statement"))
                continue
            raw = raw.strip(" ，,、：:")
            text = _household_as_user(_topic_put_after_its_verb(_strip_discourse(raw, lang), lang), lang)
            if quit_habit and _QUIT_ALONE[lang].match(text):
                text = _QUIT_READ_AS[quit_habit]
            quit_habit = None
            clause = Clause(text=text, lang=lang, sentence=sentence_index, contrast=bool(_CONTRAST.match(raw)))
            name = (_ZH_NAME if lang == "zh" else _EN_NAME).match(text)
            # A name names what the sentence's clause before it stated; after a bare lead (「不对，她叫小虹」,
            # "Sorry, her name is Hanna") it is a statement of its own, its pronoun read as usual.
            if name and clauses and clauses[-1].sentence == sentence_index:
                other = name.groupdict().get("other")
                clause.name = f"{name.group('name')}和{other}" if other else name.group("name")
                clause.subject = previous_subject
                clauses.append(clause)
                member = family_member_after([clause], member)
                continue
            reported = (_ZH_REPORTED if lang == "zh" else _EN_REPORTED).match(text)
            if reported:
                text = clause.text = reported.group("rest")
                clause.reported = True
            forgotten = forget_request(text, lang)
            if forgotten:
                # What to forget is read as a statement of its own (its subject, its slots).
                text = clause.text = forgotten
                clause.forget = True
            rule_asked = None if forgotten else standing_rule_asked(text, lang, asked and index == len(parts) - 1)
            if rule_asked:
                # Read as the rule itself, and (a request) for standing rules only.
                text = clause.text = rule_asked
            # "Can you forget my job?" is a request, whatever its question mark.
            clause.question = (
                not forgotten
                and not rule_asked
                and (
                    (asked and index == len(parts) - 1)
                    or bool(
                        (_ZH_QUESTION if lang == "zh" else _EN_QUESTION).search(
                            _ZH_WHATEVER.sub("", _ZH_WRITE_HOW_MUCH.sub("", text))
                        )
                    )
                )
            )
            clause.request = bool(rule_asked) or bool((_ZH_REQUEST if lang == "zh" else _EN_REQUEST).match(text))
            resolved = _pronoun_resolved(text, lang, member)
            if resolved:
                # 「她喜欢画画」 after 「我女儿…」: the daughter's, said of her by name.
                text = clause.text = resolved
            named_subject = subject_of(text, lang)
            if named_subject.startswith("family:"):
                word = (_ZH_SUBJECT if lang == "zh" else _EN_SUBJECT).match(text)
                clause.member = word.group(named_subject.partition(":")[2]) if word else None
                said_name = (_EN_MEMBER_NAME if lang == "en" else _ZH_MEMBER_NAME).match(text)
                listed = _EN_NAME_IN_LIST.findall(text) if lang == "en" and clause.member in _ONE_OF_MANY else []
                if resolved and member and member[2] and "|" in member[2]:
                    clause.member, clause.member_name = member[1], member[2]  # the list goes on
                elif len(listed) >= 2:
                    clause.member_name = "|".join(listed)
                elif said_name and clause.member and _member_word(said_name).lower() == clause.member.lower():
                    clause.member_name = said_name.group("name")
                elif resolved and member and member[2]:
                    clause.member_name = member[2]  # the name goes on through "she"
            explicit = (
                index == 0
                or named_subject != "self"
                or bool((_ZH_EXPLICIT_SUBJECT if lang == "zh" else _EN_EXPLICIT_SUBJECT).match(text))
            )
            clause.subject = named_subject if explicit else previous_subject
            clause.continues = not explicit
            if not explicit and member and member[0] == clause.subject and member[1] and _ZH_AGE_ALONE.match(text):
                # 「我女儿叫小雨，今年5岁」: whose age, so that 「她今年6岁了」 later replaces it (`store._restated_part`).
                text = clause.text = f"{member[1]}{text}"
            previous_subject = clause.subject
            # Hedges are often the discourse words just stripped ("I think I like jazz").
            clause.hedged = bool((_ZH_HEDGE if lang == "zh" else _EN_HEDGE).search(raw))
            # A short window binds its clause and the clauses that continue it without a subject of
            # their own ("这周我在减肥，别给我推荐甜点"); a clause naming its subject is a new statement
            # ("我今天想说一下，我对青霉素过敏").
            if explicit:
                tainted = None
            imagined = imagined or bool(_IMAGINED[lang].match(clause.text))
            if imagined:
                tainted = "a role-play or an imagined scene"
            lasting = _LASTING_AFTER_WINDOW.match(clause.text)
            if lasting:
                # "今天才发现自己对芒果过敏": the window dates the discovery, not the fact.
                rest = next(group for group in lasting.groups() if group)
                if lang == "zh" and not rest.startswith("我"):
                    # 「我确诊了甲亢」: the condition found is had (「我有甲亢」).
                    rest = f"我有{rest}" if _ZH_CONDITION_ALONE.match(rest) else f"我{rest}"
                clause.text = rest
                tainted = None  # "今天去医院检查了，医生说我有高血压": a finding outlasts the day it was made
            clause.text = _change_undated(clause.text, lang)
            window = short_window(clause.text)
            tainted = tainted or (f"short-term window: {window}" if window else None)
            # 「如果我是素食者，应该怎么补充蛋白质？」: what the user supposes, not what is so (nor what follows from it).
            tainted = tainted or ("a supposition" if _SUPPOSED[lang].match(clause.text) else None)
            former = (
                not clause.reported
                and (_ZH_FORMER if lang == "zh" else _EN_FORMER).search(clause.text)
                and not _BODYS_HISTORY.search(clause.text)
            )
            halves = _EN_BUT_NOW.split(clause.text, maxsplit=1) if former and lang == "en" else []
            changed = (
                _changed_since(*halves, lang)
                if len(halves) == 2
                else _changed_since(former_said, clause.text, lang)
                if former_said and not former
                else None
            )
            if changed:
                text = clause.text = changed
                former = None
            former_said = clause.text if former else None
            quit_habit = _former_habit(clause.text, lang) if former else None
            if quit_habit and _QUIT_WITHIN[lang].search(clause.text):
                clause.text, former, quit_habit = _QUIT_READ_AS[quit_habit], None, None
            clause.skip = (
                tainted
                or ("a former state" if former else None)
                or text_drop_reason(clause.text)
                or ("question" if clause.question else None)
                or ("one-off request" if _ONE_OFF.search(text) else None)
                or ("what a request asks for" if _describes_the_request(clause, clauses) else None)
            )
            if text:
                clauses.append(clause)
                member = family_member_after([clause], member)
    return clauses
