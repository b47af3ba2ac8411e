"""What each generated video holds, by construction: spoken lines at chosen times, on-screen signs
shown over chosen intervals, and hand-checked person counts of the real footage underneath.

A spoken line is one of a few kinds (a departure, a closure and its reason, a route, a code, a
meeting, a price); its sentence and the questions about it come from the kind's template and its
slots, so the question generator knows the answer of every question it writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Number words, so numbers are said word for word (and the transcript may hold either form).
_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_TEENS = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def number_words(n: int) -> str:
    """0 <= n < 100 in words: 47 -> 'forty seven'."""
    if not 0 <= n < 100:
        raise ValueError(f"number_words handles 0..99, got {n}")
    if n < 10:
        return _ONES[n]
    if n < 20:
        return _TEENS[n - 10]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + (f" {_ONES[ones]}" if ones else "")


def digit_words(digits: str) -> str:
    """'4719' -> 'four seven one nine' (a code is read digit by digit)."""
    return " ".join(_ONES[int(d)] for d in digits)


@dataclass(frozen=True)
class Line:
    """One spoken sentence: `kind` picks the template (KINDS), `slots` fill it."""

    kind: str
    start_s: float  # where the espeak-ng WAV starts (it has almost no leading silence)
    slots: tuple[tuple[str, str], ...]

    def slot(self, name: str) -> str:
        return dict(self.slots)[name]

    @property
    def text(self) -> str:
        return KINDS[self.kind].sentence.format(**self.words())

    def words(self) -> dict[str, str]:
        """Slots as they are said: numbers in words."""
        s = dict(self.slots)
        if "platform" in s:
            s["platform_words"] = number_words(int(s["platform"]))
        if "code" in s:
            s["code_words"] = digit_words(s["code"])
        if "price" in s:
            s["price_words"] = number_words(int(s["price"]))
        if "hour" in s:
            s["hour_words"] = number_words(int(s["hour"]))
        if "minutes" in s:
            s["minutes_words"] = number_words(int(s["minutes"]))
        if "gate" in s:
            s["gate_words"] = number_words(int(s["gate"]))
        if "ticket" in s:
            s["ticket_words"] = number_words(int(s["ticket"]))
        if "score" in s:
            s["score_words"] = number_words(int(s["score"]))
        for name in ("old_hour", "count", "price_a", "price_b", "open_hour", "close_hour", "count_a", "count_b", "age"):
            if name in s:
                s[f"{name}_words"] = number_words(int(s[name]))
        return s

    @property
    def key(self) -> str:
        """A word of the sentence a transcript row must contain to be this line's (not a number:
        the recognizer may write numbers as digits or words)."""
        return self.slot(KINDS[self.kind].key_slot)

    @property
    def topic(self) -> str:
        """What the line is about, as a noun phrase for 'when is X mentioned' questions."""
        return KINDS[self.kind].topic.format(**self.words())


@dataclass(frozen=True)
class Kind:
    sentence: str
    key_slot: str
    topic: str


KINDS: dict[str, Kind] = {
    "depart": Kind("The {color} {vehicle} leaves from platform {platform_words}.", "vehicle", "the {color} {vehicle}"),
    "closed": Kind("The {place} is closed today because {cause}.", "place", "the {place} being closed"),
    "route": Kind("To reach the {dest}, {method}.", "dest", "the way to the {dest}"),
    "code": Kind("The code for the {thing} is {code_words}.", "thing", "the code for the {thing}"),
    "meet": Kind("Meet {name} at the {landmark} at {hour_words} o'clock.", "landmark", "meeting {name}"),
    "price": Kind("A ticket to {city} costs {price_words} dollars.", "city", "the ticket to {city}"),
    # Kinds the held-out set (bench/qset/heldout.py) adds: something left behind (its questions ask
    # 'did anyone leave ...', which the line affirms), a delay, an event at a time and a room.
    "lost": Kind("Someone left a {color} {item} in the {spot}.", "item", "the {color} {item} left in the {spot}"),
    "delay": Kind(
        "The {vehicle} to {city} is delayed by {minutes_words} minutes.", "city", "the delayed {vehicle} to {city}"
    ),
    "event": Kind("The {event} starts at {hour_words} o'clock in the {room}.", "event", "the {event}"),
    # Kinds only the second held-out set (HELDOUT2_VIDEOS) says: no answering code was written or tuned
    # while they existed, so their sentences and questions are new to it.
    "board": Kind("The flight to {city} boards at gate {gate_words}.", "city", "the flight to {city}"),
    "sale": Kind("All {goods} are half price until {hour_words} o'clock.", "goods", "the sale on {goods}"),
    # Kinds only the third held-out set (HELDOUT3_VIDEOS) says, for the same reason: a forecast, and a
    # departure moved to another platform (said beside 'depart' lines, whose platform it must not take).
    "weather": Kind("Heavy {weather} is expected after {hour_words} o'clock.", "weather", "the {weather} forecast"),
    "change": Kind(
        "Platform change: the {vehicle} to {city} now leaves from platform {platform_words}.",
        "city",
        "the platform change for the {vehicle} to {city}",
    ),
    # Kinds only the fourth held-out set (HELDOUT4_VIDEOS) says, for the same reason: a cancelled service
    # and where its refunds are given (its yes/no question is 'is it still running', which the line denies),
    # and the soup of the day with the hour it is served until.
    "cancel": Kind(
        "The {vehicle} to {city} is cancelled, and refunds are given at the {desk}.",
        "city",
        "the cancelled {vehicle} to {city}",
    ),
    "menu": Kind("The soup of the day is {soup}, served until {hour_words} o'clock.", "soup", "the {soup} soup"),
    # Kinds only the fifth held-out set (HELDOUT5_VIDEOS) says, for the same reason: a shop that closes
    # early today and the hour it closes (its yes/no question is 'is it open all evening', which the line
    # denies), and a raffle's winning ticket number and its prize.
    "closing": Kind("The {shop} closes early today, at {hour_words} o'clock.", "shop", "the {shop} closing early"),
    "raffle": Kind(
        "The winning raffle ticket is number {ticket_words}, and the prize is a {prize}.",
        "prize",
        "the raffle for a {prize}",
    ),
    # Kinds only the sixth held-out set (HELDOUT6_VIDEOS) says, for the same reason: a missing pet, its
    # name and where it was last near (its yes/no question is 'has a pet gone missing', which the line
    # affirms), and a parking notice, the street whose cars are towed and from what hour (its yes/no
    # question is 'can I leave my car there all night', which the line denies).
    "pet": Kind("A {color} {animal} called {pet} is missing near the {area}.", "animal", "the missing {animal}"),
    "parking": Kind(
        "Cars parked on {street} after {hour_words} o'clock will be towed away.", "street", "parking on {street}"
    ),
    # Kinds only the seventh held-out set (HELDOUT7_VIDEOS) says, for the same reason: something found and
    # handed in at a desk, and where to collect it (its yes/no question is 'has anyone handed in a ...',
    # which the line affirms), and a free shuttle bus, where it goes and how often (its yes/no question is
    # 'do I have to pay for it', which the line denies: it is free).
    "found": Kind(
        "A {color} {item} has been handed in at the {desk}.", "item", "the {color} {item} handed in at the {desk}"
    ),
    "shuttle": Kind(
        "A free shuttle bus to the {dest} runs every {minutes_words} minutes.", "dest", "the shuttle bus to the {dest}"
    ),
    # Kinds only the eighth held-out set (HELDOUT8_VIDEOS) says, for the same reason, in sentence shapes
    # no earlier kind has: a correction (a service no longer stops at one stop and now stops at another),
    # a line that starts with a place and gives a price per hour, a warning with its hazard, where it is
    # and what to do, a name and a number (a winner and her points), a line that starts with a time (a
    # street closed to traffic from an hour this evening, and why), and two facts in two clauses (two rooms
    # and their floors).
    "restop": Kind(
        "The {vehicle} to {city} no longer stops at the {old_stop}; it stops at the {new_stop} instead.",
        "city",
        "the new stop of the {vehicle} to {city}",
    ),
    "hire": Kind("At the {spot}, you can hire {hire} for {price_words} dollars an hour.", "hire", "hiring {hire}"),
    "warning": Kind(
        "Warning: there is {hazard} on the {location}, so please {advice}.",
        "hazard",
        "the {hazard} on the {location}",
    ),
    "award": Kind(
        "The {contest} was won by {name}, with {score_words} points.", "contest", "the winner of the {contest}"
    ),
    "roadshut": Kind(
        "From {hour_words} o'clock this evening, {street} is closed to traffic for the {reason}.",
        "reason",
        "{street} closing for the {reason}",
    ),
    "floors": Kind(
        "The {room_a} is on the {floor_a} floor, and the {room_b} is on the {floor_b} floor.",
        "room_a",
        "where the {room_a} and the {room_b} are",
    ),
    # Kinds only the ninth held-out set (HELDOUT9_VIDEOS) says, for the same reason, in sentence shapes
    # no earlier kind has: a time change with the old and the new hour, a person named with their new role,
    # a comparison of two prices, a rule and its exception, a count of what is left, a recommendation and
    # its reason, and a direction in two steps that names the place only at the end.
    "moved": Kind(
        "The {occasion} has been moved from {old_hour_words} o'clock to {hour_words} o'clock.",
        "occasion",
        "the new time of the {occasion}",
    ),
    "welcome": Kind("Please welcome {name}, the new {role} of the {team}.", "team", "the new {role} of the {team}"),
    "compare": Kind(
        "A {item_a} costs {price_a_words} dollars, while a {item_b} costs {price_b_words} dollars.",
        "item_a",
        "the prices of a {item_a} and a {item_b}",
    ),
    "except": Kind("{activity} is not allowed in the {area}, except {exception}.", "area", "the rule in the {area}"),
    "left": Kind(
        "There are only {count_words} {things} left for the {occasion}.",
        "things",
        "the {things} left for the {occasion}",
    ),
    "recommend": Kind("We recommend the {dish} at the {venue}, because {reason}.", "dish", "the {dish} at the {venue}"),
    "steps": Kind("Go {step_a}, then {step_b}, and you will see the {dest}.", "dest", "the way to the {dest}"),
    # Kinds only the tenth held-out set (HELDOUT10_VIDEOS) says, for the same reason, in sentence shapes
    # no earlier kind has: a new thing that replaces an old one somewhere, a deadline on a weekday, a plan
    # for rain (where an outdoor occasion moves to), a first and a second place, a reminder of what to
    # bring, opening hours as a range (from a morning hour until an evening hour), and a programme in two
    # parts (what comes first and what follows).
    "replace": Kind("The new {new} replaces the old {old} in the {venue}.", "new", "the new {new} in the {venue}"),
    "deadline": Kind(
        "The last day to enter the {contest} is {weekday}.", "contest", "the last day to enter the {contest}"
    ),
    "rainplan": Kind(
        "If it rains, the {occasion} will be held in the {indoor}.", "occasion", "the {occasion} if it rains"
    ),
    "placed": Kind("{winner} came first in the {race}, and {runner} came second.", "race", "the results of the {race}"),
    "bring": Kind("Remember to bring {thing} for the {outing}.", "outing", "what to bring for the {outing}"),
    "hours": Kind(
        "The {facility} is open from {open_hour_words} in the morning until {close_hour_words} in the evening.",
        "facility",
        "the opening hours of the {facility}",
    ),
    "programme": Kind(
        "The {occasion} opens with {first}, followed by {second}.", "occasion", "the programme of the {occasion}"
    ),
    # Kinds only the eleventh held-out set (HELDOUT11_VIDEOS) says, for the same reason, in sentence shapes
    # no earlier kind has: a count of two things in one place, a person and the talk they will give, where
    # a group meets from next week, how long a journey takes, who gets in free where, a task in three steps
    # (first, then, finally), and a lost thing with where it was lost and where to collect it.
    "tally": Kind(
        "There are {count_a_words} {things_a} and {count_b_words} {things_b} in the {place}.",
        "things_a",
        "the {things_a} and {things_b} in the {place}",
    ),
    "speaker": Kind("{speaker} will give the talk on {subject}.", "subject", "the talk on {subject}"),
    "meetsin": Kind("From next week, the {group} meets in the {place}.", "group", "where the {group} meets"),
    "duration": Kind("The {journey} takes about {minutes_words} minutes.", "journey", "how long the {journey} takes"),
    "freeentry": Kind("{who} get in free at the {venue}.", "venue", "free entry to the {venue}"),
    "threesteps": Kind("To {task}, first {step_a}, then {step_b}, and finally {step_c}.", "task", "how to {task}"),
    "collect": Kind(
        "If you lost a {item} in the {place}, you can pick it up at the {desk}.",
        "item",
        "the {item} lost in the {place}",
    ),
    # Kinds only the twelfth held-out set (HELDOUT12_VIDEOS) says, for the same reason, in sentence shapes
    # no earlier kind has: an occasion on a new day instead of the old one, a rule of what to wear that has
    # an 'unless', a comparison of two ways (one faster, the other cheaper), a line that starts with its
    # reason ('Because of ...') and the hour an occasion now ends, a list of three things to pack, a 'take
    # care' about a surface near a place, a minimum age for an activity, and how many people a room seats.
    "newdate": Kind(
        "The {occasion} will take place on {day} instead of {old_day}.", "occasion", "the new day of the {occasion}"
    ),
    "unless": Kind(
        "Everyone must wear {gear} in the {area}, unless {exception}.", "area", "what to wear in the {area}"
    ),
    "faster": Kind(
        "The {option_a} is faster than the {option_b}, but the {option_b} is cheaper.",
        "option_a",
        "the {option_a} and the {option_b}",
    ),
    "because": Kind(
        "Because of the {cause}, the {occasion} will end at {hour_words} o'clock.",
        "occasion",
        "the {occasion} ending early",
    ),
    "pack": Kind(
        "For the {outing}, please pack {item_a}, {item_b} and {item_c}.", "outing", "what to pack for the {outing}"
    ),
    "careful": Kind(
        "Please take care: the {surface} near the {place} is {state}.", "surface", "the {surface} near the {place}"
    ),
    "minage": Kind(
        "You must be at least {age_words} years old to {activity}.", "activity", "the age limit to {activity}"
    ),
    "capacity": Kind("The {room} has seats for {count_words} people.", "room", "the seats in the {room}"),
    # Kinds only the thirteenth held-out set (HELDOUT13_VIDEOS) says, for the same reason, in sentence shapes
    # no earlier kind has: where a thing stands between two places, how many of a thing each person may take,
    # a place that opens again in a month after some work, thanks to someone for a deed, where to wait if you
    # get lost and who will find you, who a prize for the best thing goes to and their group, a request to
    # switch off phones during an occasion, and the last service to a place tonight and its hour.
    "between": Kind("The {thing} is between the {place_a} and the {place_b}.", "thing", "where the {thing} is"),
    "each": Kind("Each {who} may take {count_words} {things}.", "things", "how many {things} each {who} may take"),
    "reopen": Kind("The {place} opens again in {month} after the {work}.", "place", "the {place} opening again"),
    "thanks": Kind("Many thanks to {name} for {deed}.", "deed", "the thanks to {name}"),
    "lostwait": Kind(
        "If you get lost, wait by the {landmark} and a {helper} will find you.",
        "landmark",
        "where to wait if you get lost",
    ),
    "bestprize": Kind(
        "The prize for the best {entry} goes to {name} from the {group}.", "entry", "the prize for the best {entry}"
    ),
    "switchoff": Kind(
        "Please switch off your phones during the {occasion}.", "occasion", "phones during the {occasion}"
    ),
    "last": Kind(
        "The last {vehicle} to the {dest} leaves at {hour_words} o'clock tonight.",
        "dest",
        "the last {vehicle} to the {dest}",
    ),
    # Kinds only the fourteenth held-out set (HELDOUT14_VIDEOS) says, in sentence shapes no earlier kind has:
    # whom to ask about a topic and where, a show that is sold out beside one that is not, a place where dogs
    # must stay on a leash, how many helpers are wanted for a task on a day, a new record time, a full car park
    # and where to park instead, a birthday and an age, and a vote with its place and closing hour.
    "askabout": Kind(
        "For questions about the {topic}, ask {name} at the {desk}.", "topic", "questions about the {topic}"
    ),
    "soldout": Kind("The {show} is sold out, but seats are left for the {other}.", "show", "the {show} being sold out"),
    "leash": Kind("Dogs must be kept on a leash in the {area}.", "area", "dogs in the {area}"),
    "helpers": Kind(
        "We need {count_words} more helpers to {task} on {weekday}.", "task", "the helpers needed to {task}"
    ),
    "record": Kind(
        "{name} finished the {race} in {minutes_words} minutes, a new record.", "race", "the record in the {race}"
    ),
    "carpark": Kind(
        "The {lot} car park is full, so please park behind the {landmark}.", "landmark", "the full {lot} car park"
    ),
    "birthday": Kind("Happy birthday to {name}, who turns {age_words} today.", "name", "{name}'s birthday"),
    "vote": Kind(
        "Vote for your favourite {thing} at the {desk} before {hour_words} o'clock.",
        "thing",
        "the vote for the {thing}",
    ),
    # Kinds only the fifteenth held-out set (HELDOUT15_VIDEOS) says, in sentence shapes no earlier kind has:
    # where the money for a called-off event is given back, the quickest way to a place, a fine for leaving
    # a bike somewhere, how often a service comes, a child looking for a relative by a landmark, quiet in a
    # room while something is on, a place that stays open late on a weekday, a door only staff may use.
    "refund": Kind(
        "Everyone with a ticket for the {event} can get their money back at the {desk}.",
        "event",
        "money back for the {event}",
    ),
    "shortcut": Kind("The quickest way to the {place} is through the {path}.", "place", "the way to the {place}"),
    "fine": Kind("Bikes left on the {area} will be fined {price_words} dollars.", "area", "bikes left on the {area}"),
    "every": Kind(
        "The {vehicle} to the {dest} comes every {minutes_words} minutes.", "dest", "the {vehicle} to the {dest}"
    ),
    "looking": Kind(
        "A girl called {name} is looking for her {relative} near the {landmark}.",
        "relative",
        "{name} looking for her {relative}",
    ),
    "quiet": Kind(
        "Please keep quiet in the {room} while the {activity} is going on.", "activity", "quiet during the {activity}"
    ),
    "openlate": Kind(
        "On {weekday} the {place} stays open until {hour_words} o'clock.", "place", "the {place} open late"
    ),
    "staffonly": Kind("Only staff may use the {door} during the {occasion}.", "door", "the {door}"),
    # Kinds only the sixteenth held-out set (HELDOUT16_VIDEOS) says, in sentence shapes no earlier kind has:
    # a greeting to an event in a town, how long the queue for a ride is, what to wear to an event on a day,
    # a machine out of order and where another is, how many at a time may use a thing, a guest signing books
    # at a place and hour, what a dish is made with, and when and where tickets go on sale.
    "greeting": Kind("Good morning, and welcome to the {event} here in {town}.", "event", "the welcome to the {event}"),
    "queue": Kind(
        "The queue for the {attraction} is about {minutes_words} minutes long.",
        "attraction",
        "the queue for the {attraction}",
    ),
    "dress": Kind("Please wear {clothing} to the {event} on {weekday}.", "event", "what to wear to the {event}"),
    "broken": Kind(
        "The {machine} near the {place} is out of order, so please use the one in the {other}.",
        "machine",
        "the {machine} out of order",
    ),
    "limit": Kind(
        "Only {count_words} people at a time may use the {thing}.", "thing", "people at a time on the {thing}"
    ),
    "signing": Kind(
        "A special guest, {name}, will sign books at the {venue} at {hour_words} o'clock.",
        "venue",
        "{name} signing books",
    ),
    "recipe": Kind("Today's {dish} is made with {ingredient_a} and {ingredient_b}.", "dish", "today's {dish}"),
    "onsale": Kind(
        "Tickets for the {event} go on sale at {hour_words} o'clock at the {desk}.", "event", "tickets for the {event}"
    ),
    # Kinds only the seventeenth held-out set (HELDOUT17_VIDEOS) says, in sentence shapes no earlier kind has:
    # a dish and what it contains for people with an allergy, how soon an event starts and where, who pays for
    # an event, a fire drill at an hour and the exit to use, buses that replace a train between two towns, a
    # room where photos are not allowed and why, a match result by a number of points, free water at a spot.
    "allergy": Kind(
        "The {dish} contains {allergen}, so please ask at the {desk} if you have an allergy.",
        "dish",
        "the {dish} and allergies",
    ),
    "countdown": Kind(
        "The {event} will start in {minutes_words} minutes in the {room}.", "event", "the start of the {event}"
    ),
    "sponsor": Kind("This year the {event} is paid for by {company}.", "event", "who pays for the {event}"),
    "drill": Kind(
        "There will be a fire drill at {hour_words} o'clock, so please leave by the {exit}.",
        "exit",
        "the fire drill",
    ),
    "busreplace": Kind(
        "This weekend buses replace the trains between {town_a} and {town_b}.", "town_a", "buses instead of trains"
    ),
    "nophotos": Kind(
        "Photos are not allowed in the {room} because {reason}.", "room", "no photos in the {room}"
    ),
    "score": Kind(
        "The {team_a} beat the {team_b} by {count_words} points in the {match}.", "match", "the result of the {match}"
    ),
    "water": Kind(
        "Free drinking water is available at the {spot} next to the {landmark}.", "spot", "free water at the {spot}"
    ),
    # Kinds only the eighteenth held-out set (HELDOUT18_VIDEOS) says, in sentence shapes no earlier kind has: a
    # wifi password in a room, volunteers wanted for an event and whom to see, a parade's start and finish, where
    # the first aid post is, shoes off before a room, guided tours every so many minutes from a spot, a minute
    # of silence at an hour for someone, free refills at a desk until an hour.
    "wifi": Kind("The wifi password in the {room} is {word}, all in lower case.", "word", "the wifi password"),
    "volunteer": Kind(
        "We still need {count_words} volunteers for the {event}, so please speak to {name}.",
        "event",
        "volunteers for the {event}",
    ),
    "parade": Kind("The parade will start at the {place_a} and finish at the {place_b}.", "place_a", "the parade"),
    "firstaid": Kind(
        "The first aid post is behind the {landmark}, if anyone feels unwell.", "landmark", "the first aid post"
    ),
    "shoes": Kind("Please take off your shoes before you go into the {room}.", "room", "shoes in the {room}"),
    "tour": Kind(
        "Guided tours of the {place} leave every {minutes_words} minutes from the {spot}.",
        "place",
        "tours of the {place}",
    ),
    "silence": Kind(
        "At {hour_words} o'clock there will be a minute of silence for {name}.", "name", "the minute of silence"
    ),
    "refill": Kind(
        "Cups can be refilled for free at the {desk} until {hour_words} o'clock.", "desk", "free refills"
    ),
    # Kinds only the nineteenth held-out set (HELDOUT19_VIDEOS) says, in sentence shapes no earlier kind has:
    # where to charge a phone, umbrellas to borrow and leave, a heat warning in degrees, tonight's quiz master
    # and first round, a group photo's place and hour, the price of entry, free maps handed out, nobody under
    # an age on a ride alone.
    "charge": Kind(
        "You can charge your phone at the {desk}, but please bring your own cable.", "desk", "charging phones"
    ),
    "umbrella": Kind(
        "Umbrellas can be borrowed at the {desk} and left at the {spot} afterwards.", "desk", "borrowing umbrellas"
    ),
    "heat": Kind(
        "It will be {count_words} degrees in the {area} this afternoon, so please stay in the shade.",
        "area",
        "the heat in the {area}",
    ),
    "quizmaster": Kind(
        "{name} is the quiz master tonight, and the first round is about {subject}.", "name", "the quiz master"
    ),
    "photo": Kind("The group photo will be taken on the {place} at {hour_words} o'clock.", "place", "the group photo"),
    "entry": Kind(
        "It costs {price_words} dollars to get into the {place}, and babies go free.", "place", "entry to the {place}"
    ),
    "maps": Kind("Free maps of the {place} are handed out at the {spot}.", "place", "free maps of the {place}"),
    "alone": Kind(
        "Nobody under {age_words} may go on the {attraction} alone.", "attraction", "going on the {attraction} alone"
    ),
    # Kinds only the twentieth held-out set (HELDOUT20_VIDEOS) says: tickets that go to the front of a queue,
    # where lunch is served and after what, front rows kept for some people, a cloakroom's place and price, a
    # stamp hunt's stalls and prize, when doors open before a show, which bins take rubbish, cash only.
    "wristband": Kind(
        "People with {color} tickets can go straight to the front at the {attraction}.", "attraction",
        "the {color} tickets",
    ),
    "lunch": Kind(
        "Lunch will be served in the {room} as soon as the {occasion} is over.", "room", "lunch in the {room}"
    ),
    "seats": Kind(
        "The front {count_words} rows are kept for {who}, so please sit further back.", "who",
        "the seats kept for {who}",
    ),
    "cloakroom": Kind(
        "Coats and hats can be left in the cloakroom by the {place} for {price_words} dollars.", "place",
        "the cloakroom by the {place}",
    ),
    "stamps": Kind("Collect a stamp at each of the {count_words} stalls to win a {prize}.", "prize", "the stamp hunt"),
    "doors": Kind(
        "The doors open at {hour_words} o'clock, and the {show} begins half an hour later.", "show", "the {show}"
    ),
    "rubbish": Kind("Please put your rubbish in the {color} bins by the {spot}.", "spot", "the rubbish bins"),
    "cash": Kind(
        "The {stall} takes cash only, and the nearest cash machine is by the {landmark}.", "stall",
        "paying at the {stall}",
    ),
    # Kinds only the twenty-first held-out set (HELDOUT21_VIDEOS) says: where to fill a water bottle, who reads
    # out the raffle winner and when, a full car park and where to park instead, where the toilets are, where
    # an event moves if it rains, when a cake contest closes and who judges it, a half price for children under
    # an age, no photos in a room.
    "bottles": Kind(
        "You can fill your water bottle at the {spot} next to the {landmark}.", "spot", "filling water bottles"
    ),
    "prizes": Kind(
        "The raffle prizes are given out at {hour_words} o'clock by {name}.", "name", "the raffle prizes"
    ),
    "overflow": Kind(
        "The {color} car park is full, so please park in the field behind the {landmark}.", "landmark",
        "parking"
    ),
    "toilets": Kind("The nearest toilets are behind the {landmark}, past the {thing}.", "landmark", "the toilets"),
    "rain": Kind("If it rains, the {event} will move into the {room}.", "room", "the {event} if it rains"),
    "cakes": Kind(
        "The cake contest closes at {hour_words} o'clock, and {name} is the judge.", "name", "the cake contest"
    ),
    "halfprice": Kind(
        "Tickets for children under {age_words} are half price at the {place}.", "place", "children's tickets"
    ),
    "photos": Kind("Please do not take photos inside the {room}, because {reason}.", "room", "photos in the {room}"),
    # Kinds only the twenty-second held-out set (HELDOUT22_VIDEOS) says: free sun cream and until when, who
    # plays which instrument on which stage and when, a dog show's hour and prize, a child waiting for their
    # parents, where the picnic tables are, how many food stalls line a street, a visiting choir and its room,
    # the price of face painting and where its stall is.
    "suncream": Kind(
        "Free sun cream is handed out at the {spot} until {hour_words} o'clock.", "spot", "the free sun cream"
    ),
    "stage": Kind(
        "At {hour_words} o'clock, {name} will play the {instrument} on the {stage} stage.", "instrument",
        "the {instrument} on the {stage} stage",
    ),
    "dogshow": Kind(
        "The dog show begins at {hour_words} o'clock, and the best dog wins a {prize}.", "prize", "the dog show"
    ),
    "lostkid": Kind(
        "A child called {name} is waiting for their parents at the {desk}.", "desk", "the child waiting at the {desk}"
    ),
    "picnic": Kind("There are picnic tables on the {area}, next to the {landmark}.", "area", "the picnic tables"),
    "stalls": Kind("There are {count_words} stalls selling food along the {area} today.", "area", "the food stalls"),
    "choir": Kind("The choir from {city} will sing in the {room} after lunch.", "city", "the choir from {city}"),
    "facepaint": Kind(
        "Face painting costs {price_words} dollars at the stall beside the {landmark}.", "landmark",
        "face painting",
    ),
    # Kinds only the twenty-third held-out set (HELDOUT23_VIDEOS) says: archery lessons and where, a barbecue's
    # price a plate, a treasure hunt's start and prize, a carousel free for children until an hour, a book swap,
    # a bonfire's field and hour, a duck race's water, hour and price a duck, where glass bottles go.
    "archery": Kind(
        "Archery lessons start at {hour_words} o'clock behind the {building}.", "building", "the archery lessons"
    ),
    "barbecue": Kind(
        "The barbecue next to the {landmark} costs {price_words} dollars a plate.", "landmark", "the barbecue"
    ),
    "treasure": Kind(
        "The treasure hunt begins at the {spot}, and the prize is a {prize}.", "spot", "the treasure hunt"
    ),
    "carousel": Kind(
        "The carousel near the {landmark} is free for children until {hour_words} o'clock.", "landmark",
        "the carousel",
    ),
    "bookswap": Kind("Bring a book to the {room} and swap it for another one.", "room", "the book swap"),
    "bonfire": Kind("The bonfire on the {area} will be lit at {hour_words} o'clock.", "area", "the bonfire"),
    "duckrace": Kind(
        "The duck race on the {river} begins at {hour_words} o'clock, and each duck costs {price_words} dollars.",
        "river", "the duck race",
    ),
    "glass": Kind(
        "Please put glass bottles in the {color} bins by the {landmark}.", "landmark", "glass bottles"
    ),
    # Kinds only the twenty-fourth held-out set (HELDOUT24_VIDEOS) says: a lucky dip's price and prize, a coconut
    # shy's place and balls a dollar, a plant sale's room and end, an egg and spoon race, tractor rides and how
    # often, a juggler's name, place and hour, where to get life jackets, marshmallows' stall and price a bag.
    "luckydip": Kind(
        "The lucky dip costs {price_words} dollars, and every ticket wins a {prize}.", "prize", "the lucky dip"
    ),
    "coconut": Kind(
        "The coconut shy is next to the {landmark}, and you get {count_words} balls for a dollar.", "landmark",
        "the coconut shy",
    ),
    "plantsale": Kind("Plants are sold in the {room} until {hour_words} o'clock.", "room", "the plant sale"),
    "eggspoon": Kind(
        "The egg and spoon race for children begins at {hour_words} o'clock on the {area}.", "area",
        "the egg and spoon race",
    ),
    "tractor": Kind(
        "The tractor rides go from the {spot} every {minutes_words} minutes.", "spot", "the tractor rides"
    ),
    "juggler": Kind(
        "A juggler called {name} will perform by the {landmark} at {hour_words} o'clock.", "landmark", "the juggler"
    ),
    "lifejacket": Kind("Everyone on the boats must wear a life jacket from the {spot}.", "spot", "life jackets"),
    "marshmallow": Kind(
        "Marshmallows for the campfire are sold at the {stall} for {price_words} dollars a bag.", "stall",
        "marshmallows",
    ),
    # Kinds only the twenty-fifth held-out set (HELDOUT25_VIDEOS) says: balloon animals' place and price, a hay bale
    # climb's hour and place, lemonade's stall and price a cup, a welly throwing contest's field and prize, a dunk
    # tank's place and price, hook a duck's prize, candy floss's room and hours, why the Ferris wheel is shut.
    "balloon": Kind(
        "You can buy balloon animals by the {landmark} for {price_words} dollars each.", "landmark", "balloon animals"
    ),
    "haybale": Kind(
        "The hay bale climb opens at {hour_words} o'clock beside the {landmark}.", "landmark", "the hay bale climb"
    ),
    "lemonade": Kind("Fresh lemonade is sold at the {stall} for {price_words} dollars a cup.", "stall", "lemonade"),
    "welly": Kind(
        "The welly throwing contest is on the {area}, and the longest throw wins a {prize}.", "area",
        "the welly throwing contest",
    ),
    "dunktank": Kind(
        "The dunk tank by the {landmark} costs {price_words} dollars for three throws.", "landmark", "the dunk tank"
    ),
    "hookduck": Kind(
        "At hook a duck, a yellow duck wins a {prize} and a green duck wins a sticker.", "prize", "hook a duck"
    ),
    "candyfloss": Kind("Candy floss is made fresh in the {room} until {hour_words} o'clock.", "room", "candy floss"),
    "ferris": Kind(
        "The Ferris wheel stays shut until {hour_words} o'clock while the {crew} checks the seats.", "crew",
        "the Ferris wheel",
    ),
    # Kinds only the twenty-sixth held-out set (HELDOUT26_VIDEOS) says: a pie contest's hour and room, toffee
    # apples' price and stall, crazy golf's place and price a game, a falcon display's field and hour, hot dogs'
    # stall and last hour, fudge's room and price a box, why the bubble show moved, the drummers' place and hour.
    "pie": Kind("The pie contest starts at {hour_words} o'clock in the {room}.", "room", "the pie contest"),
    "toffee": Kind("Toffee apples cost {price_words} dollars at the {stall}.", "stall", "toffee apples"),
    "crazygolf": Kind(
        "The crazy golf course is behind the {landmark}, and each game costs {price_words} dollars.", "landmark",
        "the crazy golf course",
    ),
    "falcon": Kind("The falcon display is on the {area} at {hour_words} o'clock.", "area", "the falcon display"),
    "hotdog": Kind("Hot dogs are served at the {stall} until {hour_words} o'clock.", "stall", "hot dogs"),
    "fudge": Kind("Homemade fudge is sold in the {room} for {price_words} dollars a box.", "room", "homemade fudge"),
    "bubble": Kind("The bubble show has moved to the {area} because {cause}.", "area", "the bubble show"),
    "drummers": Kind("The drummers will play by the {landmark} at {hour_words} o'clock.", "landmark", "the drummers"),
    # Kinds only the twenty-seventh held-out set (HELDOUT27_VIDEOS) says: a storyteller's hour and room, pretzels'
    # price and stall, paddle boats' place and price a ride, a frisbee contest's area and hour, iced tea's stall and
    # last hour, cupcakes' room and price a box, why the dog agility moved, the folk singers' place and hour.
    "storyteller": Kind("The storyteller reads at {hour_words} o'clock in the {room}.", "room", "the storyteller"),
    "pretzel": Kind("Pretzels cost {price_words} dollars at the {stall}.", "stall", "pretzels"),
    "paddleboat": Kind(
        "The paddle boats are beside the {landmark}, and each ride costs {price_words} dollars.", "landmark",
        "the paddle boats",
    ),
    "frisbee": Kind("The frisbee contest is on the {area} at {hour_words} o'clock.", "area", "the frisbee contest"),
    "icedtea": Kind("Iced tea is served at the {stall} until {hour_words} o'clock.", "stall", "iced tea"),
    "cupcake": Kind("Cupcakes are sold in the {room} for {price_words} dollars a box.", "room", "cupcakes"),
    "agility": Kind("The dog agility has moved to the {area} because {cause}.", "area", "the dog agility"),
    "folksingers": Kind(
        "The folk singers will perform by the {landmark} at {hour_words} o'clock.", "landmark", "the folk singers"
    ),
    # Kinds only the twenty-eighth held-out set (HELDOUT28_VIDEOS) says: a comedian's hour and room (the hour said
    # first), sausage rolls' stall and price a plate (the stall said first), the vintage car's place and price a ride, a
    # penalty shootout's area and hour ('There is ...'), fresh strawberries' last hour and stall ('Until ...' first),
    # chocolate brownies' room and price each (the room said first), why the unicyclists moved, the string quartet's
    # place and hour (the place said first).
    "comedian": Kind("At {hour_words} o'clock the comedian takes the stage in the {room}.", "room", "the comedian"),
    "sausagerolls": Kind(
        "The {stall} sells warm sausage rolls at {price_words} dollars a plate.", "stall", "sausage rolls"
    ),
    "vintagecar": Kind(
        "The vintage car leaves from the {landmark}, and a ride costs {price_words} dollars.",
        "landmark",
        "the vintage car",
    ),
    "penalty": Kind(
        "There is a penalty shootout on the {area} at {hour_words} o'clock.", "area", "the penalty shootout"
    ),
    "strawberries": Kind(
        "Until {hour_words} o'clock, fresh strawberries are sold at the {stall}.", "stall", "fresh strawberries"
    ),
    "brownies": Kind(
        "In the {room}, chocolate brownies cost {price_words} dollars each.", "room", "chocolate brownies"
    ),
    "unicyclists": Kind("The unicyclists have gone to the {area}, because {cause}.", "area", "the unicyclists"),
    "quartet": Kind(
        "Next to the {landmark}, the string quartet begins at {hour_words} o'clock.", "landmark", "the string quartet"
    ),
}

# Slot values a kind's multiple-choice distractors are drawn from (the right one is the line's).
POOLS: dict[str, tuple[str, ...]] = {
    "color": ("red", "blue", "green", "yellow", "white", "orange"),
    "vehicle": ("train", "bus", "ferry", "tram", "coach"),
    "place": ("library", "museum", "swimming pool", "bakery", "post office", "cinema"),
    "cause": (
        "the roof is leaking",
        "the heating is broken",
        "the staff are on strike",
        "a water pipe burst last night",
        "the power is off",
        "the floor is being painted",
    ),
    "dest": ("castle", "harbor", "stadium", "airport", "market", "hospital"),
    "method": (
        "take the ferry across the river",
        "follow the blue line on the floor",
        "turn left at the old bridge",
        "ride a bicycle along the canal",
        "climb the stairs behind the church",
        "take the lift to the top floor",
    ),
    "thing": ("locker", "safe", "storage room", "garage", "side door"),
    "name": ("Anna", "Peter", "Maria", "David", "Laura", "Thomas"),
    "landmark": ("fountain", "clock tower", "main entrance", "statue", "bridge"),
    "city": ("Paris", "Berlin", "Madrid", "Vienna", "Dublin", "Lisbon"),
    "item": ("umbrella", "backpack", "jacket", "camera", "suitcase"),
    "spot": ("waiting room", "front hall", "main lobby", "ticket office"),
    "event": ("concert", "lecture", "film", "dance class", "cooking class"),
    "room": ("main hall", "garden", "basement", "east wing"),
    "goods": ("sandwiches", "postcards", "umbrellas", "desserts", "flowers", "books"),
    "desk": ("information desk", "booking office", "service counter", "front desk", "help point"),
    "soup": ("tomato", "mushroom", "lentil", "pumpkin", "onion", "carrot"),
    "pet": ("Max", "Bella", "Charlie", "Luna", "Milo", "Daisy"),
}


@dataclass(frozen=True)
class Sign:
    """Text burned into the frames with gte(t, start_s) * lt(t, end_s): capitals, digits, spaces."""

    text: str
    start_s: float
    end_s: float
    place: str = "top"  # 'top' | 'top2' (a second line under the top one) | 'bottom'


@dataclass(frozen=True)
class Count:
    """People visible at clip time t_s, counted by looking at the frame (a range: people overlap)."""

    t_s: float
    low: int
    high: int
    note: str = ""


@dataclass(frozen=True)
class Footage:
    """Where the pictures come from: a fixture file (tests/fixtures) or an opencv-doc sample."""

    source: str  # fixture key ('vtest', 'bikes', 'carphone', 'bigbuckbunny') or opencv sample file name
    start_s: float = 0.0
    loops: int = 1  # the source played this many times in a row (short samples)
    width: int | None = None  # scaled to this width (height keeps the aspect ratio); None: as is
    fps: int = 10


@dataclass(frozen=True)
class Video:
    name: str
    footage: Footage
    duration_s: float
    scene: str  # what the footage shows, in words
    lines: tuple[Line, ...]
    signs: tuple[Sign, ...]
    counts: tuple[Count, ...] = field(default=())
    absent_words: tuple[str, ...] = ()  # never said nor shown: for questions the video cannot answer

    @property
    def file(self) -> str:
        return f"{self.name}.mp4"


# Every line was checked against what faster-whisper base writes for it in its video (an ingest of the
# set): words it mishears ('blue bus' -> 'numerous', 'white ferry' -> 'fairy', 'bus stop' -> 'most top',
# 'harbour' -> 'harbor') and codes it garbles ('four seven one nine' -> '4-7-1-I-N', 'six zero four two'
# -> '6.042') were replaced, so every spoken answer is readable in the transcript.
def _line(kind: str, start_s: float, **slots: str | int) -> Line:
    return Line(kind, start_s, tuple((k, str(v)) for k, v in slots.items()))


VTEST_SCENE = "Fixed high camera over a campus square with a lamp post, a tripod on the grass and pedestrians."
# Hand-checked people counts in vtest.avi by its own time (tests/fixtures/truth.json for 0-41 s;
# 45-75 s counted for this set from single frames: `ffmpeg -ss T -i vtest.avi -frames:v 1`).
VTEST_COUNTS: dict[float, tuple[int, int, str]] = {
    0.0: (3, 3, "truth.json"),
    5.0: (5, 7, "truth.json"),
    10.0: (6, 8, "truth.json"),
    15.0: (7, 9, "truth.json"),
    30.0: (5, 7, "truth.json"),
    36.0: (5, 7, "truth.json"),
    41.0: (2, 2, "truth.json"),
    45.0: (3, 4, "two on the road by the lamp post, a woman in red right"),
    50.0: (4, 4, "a woman in red left of the lamp post, three men right"),
    55.0: (5, 6, "two walking on the grass, two right, a woman in red left, one behind the lamp-post sign"),
    60.0: (6, 7, "one top left, three right, one by the tripod, a woman on the grass"),
    65.0: (6, 6, "three on the road left, one centre, one right, a woman on the grass"),
    70.0: (8, 9, "six on the road, one right, a woman on the grass left"),
    75.0: (7, 9, "seven on the road and one by the van top right"),
}


def vtest_counts(source_start_s: float, duration_s: float) -> tuple[Count, ...]:
    return tuple(
        Count(round(t - source_start_s, 3), lo, hi, note)
        for t, (lo, hi, note) in VTEST_COUNTS.items()
        if source_start_s <= t < source_start_s + duration_s
    )


VIDEOS: tuple[Video, ...] = (
    Video(
        "q01_square_morning",
        Footage("vtest", 0.0),
        24.0,
        VTEST_SCENE,
        (
            _line("depart", 1.0, color="red", vehicle="train", platform=7),
            _line("closed", 6.5, place="library", cause="the roof is leaking"),
            _line("code", 13.0, thing="locker", code="4758"),
            _line("meet", 18.5, name="Anna", landmark="fountain", hour=3),
        ),
        (Sign("PLATFORM 7", 2.0, 11.0), Sign("DELAYED 20 MIN", 11.0, 20.0), Sign("NORTH SQUARE", 15.0, 24.0, "bottom")),
        vtest_counts(0.0, 24.0),
        ("helicopter", "umbrella"),
    ),
    Video(
        "q02_square_noon",
        Footage("vtest", 26.0),
        24.0,
        VTEST_SCENE,
        (
            _line("price", 1.5, city="Vienna", price=35),
            _line("route", 7.0, dest="castle", method="take the ferry across the river"),
            _line("depart", 13.5, color="red", vehicle="bus", platform=12),
            _line("closed", 19.0, place="museum", cause="the heating is broken"),
        ),
        (Sign("TICKETS 35 EURO", 1.0, 9.0), Sign("SOLD OUT", 9.0, 17.0), Sign("EXIT B", 17.0, 24.0, "bottom")),
        vtest_counts(26.0, 24.0),
        ("giraffe", "piano"),
    ),
    Video(
        "q03_square_evening",
        Footage("vtest", 50.0),
        28.0,
        VTEST_SCENE,
        (
            _line("meet", 2.0, name="Peter", landmark="clock tower", hour=9),
            _line("code", 8.5, thing="safe", code="2583"),
            _line("route", 15.0, dest="harbor", method="turn left at the old bridge"),
            _line("price", 22.0, city="Dublin", price=48),
        ),
        (Sign("ROOM 204", 3.0, 12.0), Sign("EXAM IN PROGRESS", 12.0, 21.0), Sign("QUIET PLEASE", 21.0, 28.0, "bottom")),
        vtest_counts(50.0, 28.0),
        ("elephant", "guitar"),
    ),
    Video(
        "q04_square_afternoon",
        Footage("vtest", 36.0),
        22.0,
        VTEST_SCENE,
        (
            _line("closed", 1.0, place="swimming pool", cause="the staff are on strike"),
            _line("depart", 7.0, color="green", vehicle="tram", platform=4),
            _line("meet", 14.0, name="Maria", landmark="main entrance", hour=6),
        ),
        (Sign("POOL CLOSED", 1.0, 8.0), Sign("TRAM STOP 4", 8.0, 16.0), Sign("WELCOME", 16.0, 22.0, "bottom")),
        vtest_counts(36.0, 22.0),
        ("submarine", "violin"),
    ),
    Video(
        "q05_street_bikes",
        Footage("bikes", loops=3, fps=25),
        20.0,
        "Street montage with hard cuts: a man between cars, a taxi sign, a cyclist, railings, parked bicycles.",
        (
            _line("route", 1.0, dest="stadium", method="ride a bicycle along the canal"),
            _line("price", 7.0, city="Berlin", price=19),
            _line("depart", 13.0, color="yellow", vehicle="coach", platform=15),
        ),
        (Sign("BIKE LANE", 0.0, 9.0), Sign("NO PARKING", 9.0, 17.0), Sign("CITY CENTRE 2 KM", 12.0, 20.0, "bottom")),
        (),
        ("dolphin", "trumpet"),
    ),
    Video(
        "q06_car_phone",
        Footage("carphone", loops=5, width=352, fps=15),
        16.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("meet", 1.0, name="David", landmark="statue", hour=11),
            _line("code", 6.0, thing="garage", code="7364"),
            _line("closed", 11.0, place="bakery", cause="the power is off"),
        ),
        (Sign("CALLING", 0.0, 6.0), Sign("ON HOLD", 6.0, 12.0), Sign("CALL ENDED", 12.0, 16.0)),
        (Count(2.0, 1, 1, "the man in the back seat"), Count(10.0, 1, 1, "the man in the back seat")),
        ("penguin", "saxophone"),
    ),
    Video(
        "q07_bunny_meadow",
        Footage("bigbuckbunny", loops=4, width=640, fps=25),
        17.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("price", 1.0, city="Paris", price=62),
            _line("closed", 5.5, place="cinema", cause="the floor is being painted"),
            _line("route", 11.5, dest="market", method="climb the stairs behind the church"),
        ),
        (Sign("SPRING FAIR", 1.0, 7.0), Sign("GATES OPEN 9 AM", 7.0, 17.0)),
        (Count(3.0, 0, 0, "an animated rabbit, no people"), Count(12.0, 0, 0, "an animated rabbit, no people")),
        ("tractor", "drum"),
    ),
    Video(
        "q08_tree_window",
        Footage("tree.avi", 0.0, width=640, fps=15),
        26.0,
        "A leafy tree seen through a window, the camera moving slightly; no people.",
        (
            _line("code", 1.0, thing="storage room", code="3145"),
            _line("depart", 7.5, color="yellow", vehicle="bus", platform=3),
            _line("meet", 13.5, name="Laura", landmark="main entrance", hour=8),
            _line("closed", 19.0, place="post office", cause="a water pipe burst last night"),
        ),
        (Sign("GARDEN VIEW", 1.0, 10.0), Sign("STORM WARNING", 10.0, 18.0), Sign("STAY INSIDE", 18.0, 26.0, "bottom")),
        (),
        ("camel", "harp"),
    ),
    Video(
        "q09_dinner_talk",
        Footage("Megamind.avi", 0.0, loops=3, fps=12),
        24.0,
        "Animation: a man with glasses and a woman talk across a candle-lit restaurant table.",
        (
            _line("depart", 1.0, color="orange", vehicle="train", platform=6),
            _line("code", 7.0, thing="side door", code="6248"),  # heard as "$47.36" after the price, "for 712" for 4712
            _line("price", 13.0, city="Madrid", price=27),
            _line("route", 18.0, dest="airport", method="take the lift to the top floor"),
        ),
        (Sign("TABLE 12", 0.0, 8.0), Sign("RESERVED", 8.0, 16.0), Sign("KITCHEN CLOSED", 16.0, 24.0, "bottom")),
        (),
        ("kangaroo", "accordion"),
    ),
    Video(
        "q10_tree_garden",
        Footage("tree.avi", 4.0, width=640, fps=15),
        22.0,
        "A leafy tree seen through a window, the camera moving slightly; no people.",
        (
            _line("route", 1.5, dest="hospital", method="follow the blue line on the floor"),
            _line("meet", 8.0, name="Thomas", landmark="fountain", hour=5),
            _line("price", 14.5, city="Lisbon", price=54),
        ),
        (Sign("VISITORS", 2.0, 10.0), Sign("WARD 6", 10.0, 18.0), Sign("NO ENTRY", 18.0, 22.0, "bottom")),
        (),
        ("volcano", "flute"),
    ),
    Video(
        "q11_square_late",
        Footage("vtest", 58.0),
        21.0,
        VTEST_SCENE,
        (
            _line("code", 1.0, thing="side door", code="3861"),
            _line("closed", 6.5, place="cinema", cause="the power is off"),
            _line("depart", 12.5, color="white", vehicle="bus", platform=21),
        ),
        (Sign("FIRE DRILL", 1.0, 9.0), Sign("ALL CLEAR", 9.0, 16.0), Sign("GATE 5", 16.0, 21.0, "bottom")),
        vtest_counts(58.0, 21.0),
        ("tiger", "cello"),
    ),
    Video(
        "q12_street_evening",
        Footage("bikes", loops=2, fps=25),
        19.0,
        "Street montage with hard cuts: a man between cars, a taxi sign, a cyclist, railings, parked bicycles.",
        (
            _line("meet", 1.0, name="Maria", landmark="clock tower", hour=10),
            _line("closed", 7.0, place="museum", cause="the floor is being painted"),
            _line("code", 13.0, thing="garage", code="6248"),
        ),
        (Sign("TAXI RANK", 1.0, 8.0), Sign("ROAD WORKS", 8.0, 15.0), Sign("DETOUR", 15.0, 19.0, "bottom")),
        (),
        ("rocket", "banjo"),
    ),
)
BY_NAME = {v.name: v for v in VIDEOS}


# ------------------------------------------------------------------ the held-out set's videos (bench/qset/heldout.py)

VTEST_SOURCE_S = 79.5  # vtest.avi: 795 frames at 10 fps; a looped video starts it again at once


def vtest_counts_looped(source_start_s: float, duration_s: float) -> tuple[Count, ...]:
    """VTEST_COUNTS at every clip time they fall on when vtest is looped from `source_start_s`."""
    out = []
    for loop in range(int((source_start_s + duration_s) // VTEST_SOURCE_S) + 1):
        for t, (lo, hi, note) in VTEST_COUNTS.items():
            clip_t = round(loop * VTEST_SOURCE_S + t - source_start_s, 3)
            if 0 <= clip_t < duration_s:
                out.append(Count(clip_t, lo, hi, note))
    return tuple(sorted(out, key=lambda c: c.t_s))


def _looped(source_start_s: float, duration_s: float) -> int:
    return int((source_start_s + duration_s) // VTEST_SOURCE_S) + 1


# Ten minutes of the campus square with fifteen announcements and sixteen on-screen texts (two of them
# a second line under the top sign or a bottom caption in the last minute): the truth for questions,
# chapters and summaries of a long video. Import it: `from bench.qset.spec import CITY_DAY_10MIN`.
CITY_DAY_10MIN = Video(
    "city_day_10min",
    Footage("vtest", 0.0, loops=_looped(0.0, 610.0), width=640),
    610.0,
    VTEST_SCENE,
    (
        _line("depart", 10.0, color="red", vehicle="train", platform=4),
        _line("closed", 50.0, place="swimming pool", cause="a water pipe burst last night"),
        _line("meet", 90.0, name="Maria", landmark="fountain", hour=11),
        _line("price", 130.0, city="Madrid", price=58),
        _line("lost", 170.0, color="yellow", item="suitcase", spot="front hall"),
        _line("route", 210.0, dest="hospital", method="follow the blue line on the floor"),
        _line("code", 250.0, thing="garage", code="4758"),
        _line("delay", 290.0, vehicle="tram", city="Vienna", minutes=35),
        _line("event", 330.0, event="film", hour=8, room="garden"),
        _line("depart", 370.0, color="green", vehicle="coach", platform=16),
        _line("closed", 410.0, place="post office", cause="the floor is being painted"),
        _line("meet", 450.0, name="David", landmark="main entrance", hour=2),
        _line("price", 500.0, city="Berlin", price=23),
        _line("event", 550.0, event="dance class", hour=5, room="east wing"),
        _line("lost", 590.0, color="white", item="camera", spot="main lobby"),
    ),
    (
        Sign("CITY INFORMATION", 0.0, 45.0),
        Sign("POOL CLOSED", 45.0, 120.0),
        Sign("FOUNTAIN SQUARE", 80.0, 160.0, "bottom"),
        Sign("TICKET OFFICE", 120.0, 200.0),
        Sign("LOST AND FOUND", 200.0, 245.0),
        Sign("FOLLOW BLUE LINE", 205.0, 260.0, "bottom"),
        Sign("GARAGE LEVEL 3", 245.0, 300.0),
        Sign("TRAM DELAYED", 300.0, 360.0),
        Sign("OPEN AIR CINEMA", 325.0, 400.0, "bottom"),
        Sign("COACH BAY 16", 360.0, 440.0),
        Sign("POST OFFICE SHUT", 440.0, 480.0),
        Sign("MAIN ENTRANCE", 445.0, 520.0, "bottom"),
        Sign("EVENING MARKET", 480.0, 545.0),
        Sign("DANCE CLASS TONIGHT", 545.0, 610.0),
        Sign("SEE YOU TOMORROW", 570.0, 610.0, "top2"),
        Sign("LAST BUS 11 PM", 580.0, 610.0, "bottom"),
    ),
    vtest_counts_looped(0.0, 610.0),
    ("giraffe", "violin"),
)

TREE_SCENE = "A leafy tree seen through a window, the camera moving slightly; no people."
BIKES_SCENE = "Street montage with hard cuts: a man between cars, a taxi sign, a cyclist, railings, parked bicycles."
DINNER_SCENE = "Animation: a man with glasses and a woman talk across a candle-lit restaurant table."

HELDOUT_VIDEOS: tuple[Video, ...] = (
    Video(
        "station_evening",
        Footage("vtest", 0.0, loops=_looped(0.0, 160.0), width=640),
        160.0,
        VTEST_SCENE,
        (
            _line("depart", 6.0, color="orange", vehicle="train", platform=9),
            _line("delay", 30.0, vehicle="bus", city="Madrid", minutes=25),
            _line("lost", 55.0, color="red", item="umbrella", spot="waiting room"),
            _line("closed", 80.0, place="bakery", cause="the power is off"),
            _line("code", 105.0, thing="locker", code="7364"),
            _line("meet", 128.0, name="Thomas", landmark="clock tower", hour=7),
            _line("price", 148.0, city="Berlin", price=44),
        ),
        (
            Sign("PLATFORM 9", 3.0, 25.0),
            Sign("BUS DELAYED", 28.0, 50.0),
            Sign("LOST PROPERTY", 52.0, 78.0),
            Sign("BAKERY CLOSED", 78.0, 100.0),
            Sign("LOCKERS LEVEL 2", 100.0, 125.0),
            Sign("NIGHT SERVICE", 125.0, 160.0),
            Sign("LAST TRAIN 11 PM", 135.0, 160.0, "top2"),
            Sign("WAY OUT", 120.0, 160.0, "bottom"),
        ),
        vtest_counts_looped(0.0, 160.0),
        ("helicopter", "trumpet"),
    ),
    Video(
        "museum_weekend",
        Footage("tree.avi", 0.0, loops=6, width=640, fps=15),
        155.0,
        TREE_SCENE,
        (
            _line("event", 5.0, event="lecture", hour=2, room="east wing"),
            _line("closed", 25.0, place="library", cause="the heating is broken"),
            _line("route", 48.0, dest="market", method="turn left at the old bridge"),
            _line("lost", 72.0, color="green", item="jacket", spot="main lobby"),
            _line("price", 95.0, city="Vienna", price=12),
            _line("code", 118.0, thing="storage room", code="3145"),
            _line("meet", 138.0, name="Laura", landmark="statue", hour=4),
        ),
        (
            Sign("MUSEUM OPEN", 0.0, 20.0),
            Sign("LIBRARY CLOSED", 22.0, 45.0),
            Sign("EXHIBITION HALL", 45.0, 90.0),
            Sign("GIFT SHOP", 60.0, 90.0, "bottom"),
            Sign("LAST ENTRY 5 PM", 100.0, 155.0),
            Sign("STAIRS TO LEVEL 2", 130.0, 155.0, "top2"),
        ),
        (),
        ("penguin", "cello"),
    ),
    Video(
        "market_street",
        Footage("bikes", loops=18, fps=25),
        170.0,
        BIKES_SCENE,
        (
            _line("price", 4.0, city="Lisbon", price=30),
            _line("depart", 28.0, color="green", vehicle="bus", platform=5),
            _line("event", 52.0, event="cooking class", hour=6, room="basement"),
            _line("delay", 76.0, vehicle="ferry", city="Dublin", minutes=15),
            _line("lost", 100.0, color="orange", item="backpack", spot="ticket office"),
            _line("route", 124.0, dest="airport", method="ride a bicycle along the canal"),
            _line("meet", 148.0, name="Peter", landmark="bridge", hour=10),
        ),
        (
            Sign("MARKET DAY", 0.0, 30.0),
            Sign("FRESH BREAD", 30.0, 60.0),
            Sign("NO CYCLING", 60.0, 95.0),
            Sign("CAR PARK FULL", 95.0, 125.0),
            Sign("CANAL PATH", 120.0, 170.0, "bottom"),
            Sign("CLOSING SOON", 140.0, 170.0),
            Sign("HALF PRICE", 150.0, 170.0, "top2"),
        ),
        (),
        ("kangaroo", "harp"),
    ),
    Video(
        "restaurant_night",
        Footage("Megamind.avi", 0.0, loops=15, width=640, fps=12),
        165.0,
        DINNER_SCENE,
        (
            _line("meet", 5.0, name="Anna", landmark="main entrance", hour=8),
            _line("price", 30.0, city="Paris", price=70),
            _line("closed", 55.0, place="cinema", cause="the staff are on strike"),
            _line("code", 80.0, thing="side door", code="2583"),
            _line("depart", 105.0, color="red", vehicle="ferry", platform=3),
            _line("event", 130.0, event="concert", hour=9, room="main hall"),
        ),
        (
            Sign("TABLE FOR TWO", 0.0, 35.0),
            Sign("CHEF SPECIAL", 35.0, 70.0),
            Sign("CINEMA CLOSED", 70.0, 100.0),
            Sign("DESSERT MENU", 100.0, 140.0),
            Sign("CONCERT TONIGHT", 128.0, 165.0, "bottom"),
        ),
        (),
        ("tractor", "banjo"),
    ),
    CITY_DAY_10MIN,
    Video(
        "platform_news",
        Footage("vtest", 10.0),
        45.0,
        VTEST_SCENE,
        (
            _line("depart", 1.5, color="white", vehicle="train", platform=8),
            # "The coach to Lisbon ..." was heard as "The coach talisman ..." (faster-whisper base, checked)
            _line("delay", 12.0, vehicle="tram", city="Berlin", minutes=40),
            _line("lost", 24.0, color="red", item="camera", spot="waiting room"),
            _line("code", 35.0, thing="safe", code="7364"),
        ),
        (
            Sign("PLATFORM 8", 0.0, 15.0),
            Sign("TRAM DELAYED", 15.0, 30.0),
            Sign("WAITING ROOM", 22.0, 45.0, "bottom"),
            Sign("PLEASE WAIT", 30.0, 45.0),
        ),
        vtest_counts(10.0, 45.0),
        ("elephant", "piano"),
    ),
    Video(
        "car_call",
        Footage("carphone", loops=8, width=352, fps=15),
        30.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("meet", 1.0, name="Laura", landmark="bridge", hour=6),
            _line("price", 9.0, city="Dublin", price=16),
            _line("closed", 18.0, place="museum", cause="the roof is leaking"),
        ),
        (
            Sign("INCOMING CALL", 0.0, 10.0),
            Sign("LINE BUSY", 10.0, 20.0),
            Sign("CALL BACK LATER", 20.0, 30.0, "bottom"),
        ),
        (Count(5.0, 1, 1, "the man in the back seat"), Count(22.0, 1, 1, "the man in the back seat")),
        ("dolphin", "drum"),
    ),
    Video(
        "bunny_fair",
        Footage("bigbuckbunny", loops=7, width=640, fps=25),
        35.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("event", 1.5, event="lecture", hour=3, room="main hall"),
            _line("route", 11.0, dest="castle", method="take the ferry across the river"),
            _line("lost", 21.0, color="white", item="jacket", spot="front hall"),
        ),
        (Sign("RABBIT RACE", 0.0, 12.0), Sign("PRIZES AT NOON", 12.0, 25.0), Sign("MEADOW GATE", 25.0, 35.0, "bottom")),
        (Count(4.0, 0, 0, "an animated rabbit, no people"), Count(20.0, 0, 0, "an animated rabbit, no people")),
        ("submarine", "flute"),
    ),
    Video(
        "dinner_reservation",
        Footage("Megamind.avi", 0.0, loops=4, width=640, fps=12),
        35.0,
        DINNER_SCENE,
        (
            _line("code", 1.0, thing="locker", code="3861"),
            _line("price", 10.0, city="Vienna", price=85),
            _line("delay", 20.0, vehicle="train", city="Paris", minutes=10),
        ),
        (Sign("BOOKING 7 PM", 0.0, 12.0), Sign("WINE LIST", 12.0, 24.0), Sign("TABLE 9", 24.0, 35.0, "bottom")),
        (),
        ("camel", "guitar"),
    ),
    Video(
        "garden_window",
        Footage("tree.avi", 3.0, loops=2, width=640, fps=15),
        40.0,
        TREE_SCENE,
        (
            _line("closed", 1.5, place="library", cause="the staff are on strike"),
            _line("meet", 12.0, name="Peter", landmark="statue", hour=3),
            _line("event", 23.0, event="cooking class", hour=7, room="garden"),
            _line("price", 32.0, city="Lisbon", price=27),
        ),
        (
            Sign("RAIN TODAY", 0.0, 14.0),
            Sign("ROSES IN BLOOM", 14.0, 28.0),
            Sign("GATE CLOSES AT 6", 28.0, 40.0, "bottom"),
        ),
        (),
        ("volcano", "accordion"),
    ),
    Video(
        "bikes_detour",
        Footage("bikes", loops=5, fps=25),
        40.0,
        BIKES_SCENE,
        (
            _line("route", 1.0, dest="stadium", method="climb the stairs behind the church"),
            _line("depart", 11.0, color="yellow", vehicle="tram", platform=2),
            _line("code", 22.0, thing="side door", code="4758"),
            _line("lost", 31.0, color="green", item="umbrella", spot="ticket office"),
        ),
        (
            Sign("DETOUR AHEAD", 0.0, 13.0),
            Sign("CYCLE PATH", 13.0, 27.0),
            Sign("SLOW DOWN", 27.0, 40.0),
            Sign("STADIUM 3 KM", 27.0, 40.0, "bottom"),
        ),
        (),
        ("rocket", "saxophone"),
    ),
    Video(
        "square_lost_found",
        Footage("vtest", 40.0),
        38.0,
        VTEST_SCENE,
        (
            _line("lost", 1.5, color="orange", item="suitcase", spot="main lobby"),
            _line("meet", 12.0, name="Anna", landmark="clock tower", hour=4),
            _line("closed", 23.0, place="cinema", cause="the heating is broken"),
        ),
        (
            Sign("LOST PROPERTY OFFICE", 0.0, 14.0),
            Sign("OPEN 9 TO 5", 14.0, 28.0),
            Sign("ASK AT THE DESK", 20.0, 38.0, "bottom"),
        ),
        vtest_counts(40.0, 38.0),
        ("tiger", "organ"),
    ),
    Video(
        "square_noon_notice",
        Footage("vtest", 25.0),
        40.0,
        VTEST_SCENE,
        (
            _line("price", 1.0, city="Paris", price=45),
            _line("event", 11.0, event="dance class", hour=1, room="basement"),
            _line("route", 22.0, dest="harbor", method="follow the blue line on the floor"),
            _line("depart", 32.0, color="red", vehicle="bus", platform=11),
        ),
        (
            Sign("TICKETS HERE", 0.0, 12.0),
            Sign("DANCE CLASS 1 PM", 12.0, 26.0),
            Sign("MARKET THIS WAY", 26.0, 40.0),
            Sign("BUS BAY 11", 30.0, 40.0, "bottom"),
        ),
        vtest_counts(25.0, 40.0),
        ("zebra", "bagpipes"),
    ),
)
HELDOUT_BY_NAME = {v.name: v for v in HELDOUT_VIDEOS}


# ------------------------------------------------------------------ the second held-out set (split 'test2')

# Six videos built after the first test split was spent (issue 23, stop 16), to measure answering once
# more on videos no answering code has seen: two kinds of line no code was written for ('board',
# 'sale'), new slot values, and long silences (20-35 s) between announcements in the long videos, where
# Whisper merges sentences across the silence. Nothing here was asked of the answering code before the
# one test2 run reported in the issue. As for the first set, lines were checked against what
# faster-whisper base writes for them in their video, and words it garbled were replaced before any
# question was asked: 'ferry to Lisbon' -> 'fairy talisman', 'quiz night' -> 'quiz-ite', 'cloakroom'
# -> 'clothes room' (once of two), 'is now boarding at gate six' -> 'is outboarding at 8.6'. Left as
# they are after the second ingest (no third round): 'boards at gate three/six' -> 'board at 8-3' and
# '8.6' in cafe_evening and bikes_rush, and code 'six two nine zero' -> '6-9-0' in cafe_evening, so
# those gate and code questions are not answerable from the transcript (the test2 note counts them).
HELDOUT2_VIDEOS: tuple[Video, ...] = (
    Video(
        "harbor_evening",
        Footage("vtest", 20.0, loops=_looped(20.0, 170.0), width=640),
        170.0,
        VTEST_SCENE,
        (
            _line("board", 4.0, city="Oslo", gate=14),
            _line("lost", 20.0, color="blue", item="scarf", spot="cloakroom"),
            _line("delay", 58.0, vehicle="tram", city="Madrid", minutes=20),
            _line("closed", 76.0, place="swimming pool", cause="a storm damaged the windows"),
            _line("sale", 112.0, goods="sandwiches", hour=4),
            _line("meet", 131.0, name="Sophie", landmark="lighthouse", hour=6),
            _line("price", 158.0, city="Athens", price=39),
        ),
        (
            Sign("WELCOME TO THE HARBOR", 0.0, 26.0),
            Sign("CHECK IN OPEN", 26.0, 55.0),
            Sign("TRAMS RUNNING LATE", 55.0, 92.0),
            Sign("SWIM CENTRE SHUT", 92.0, 120.0),
            Sign("CAFE DEALS", 108.0, 150.0, "bottom"),
            Sign("LIGHTHOUSE TOURS", 120.0, 170.0),
            Sign("LAST FERRY 10 PM", 140.0, 170.0, "top2"),
        ),
        vtest_counts_looped(20.0, 170.0),
        ("octopus", "kettle"),
    ),
    Video(
        "gallery_afternoon",
        Footage("tree.avi", 1.0, loops=6, width=640, fps=15),
        150.0,
        TREE_SCENE,
        (
            _line("event", 3.0, event="poetry reading", hour=5, room="garden"),
            _line("sale", 30.0, goods="postcards", hour=6),
            _line("closed", 60.0, place="cinema", cause="the projector is broken"),
            _line("route", 86.0, dest="car park", method="take the lift to the top floor"),
            _line("lost", 107.0, color="black", item="wallet", spot="gift shop"),
            _line("meet", 133.0, name="Oliver", landmark="east gate", hour=1),
        ),
        (
            Sign("GALLERY OPEN", 0.0, 28.0),
            Sign("POSTCARDS 2 FOR 1", 28.0, 58.0),
            Sign("QUIET ZONE", 40.0, 100.0, "bottom"),
            Sign("SCREENING CANCELLED", 58.0, 84.0),
            Sign("CAR PARK LEVEL 5", 84.0, 104.0),
            Sign("THANK YOU FOR VISITING", 104.0, 150.0),
            Sign("GIFT SHOP OPEN", 112.0, 150.0, "top2"),
        ),
        (),
        ("parrot", "trombone"),
    ),
    Video(
        "cafe_evening",
        Footage("Megamind.avi", 0.0, loops=15, width=640, fps=12),
        160.0,
        DINNER_SCENE,
        (
            _line("price", 6.0, city="Athens", price=64),
            _line("event", 33.0, event="wine tasting", hour=8, room="east wing"),
            _line("code", 61.0, thing="wine cellar", code="6290"),
            _line("sale", 90.0, goods="desserts", hour=10),
            _line("board", 118.0, city="Vienna", gate=3),
            _line("lost", 145.0, color="grey", item="hat", spot="front hall"),
        ),
        (
            Sign("OPEN LATE", 0.0, 30.0),
            Sign("WINE TASTING", 30.0, 60.0),
            Sign("STAFF ONLY", 60.0, 88.0),
            Sign("DESSERTS HALF PRICE", 88.0, 125.0),
            Sign("TAXI OUTSIDE", 115.0, 160.0, "bottom"),
            Sign("GOOD NIGHT", 125.0, 160.0),
        ),
        (),
        ("helmet", "tuba"),
    ),
    Video(
        "bikes_rush",
        Footage("bikes", loops=5, fps=25),
        48.0,
        BIKES_SCENE,
        (
            _line("board", 1.5, city="Rome", gate=6),
            _line("price", 12.0, city="Prague", price=52),
            _line("sale", 24.0, goods="umbrellas", hour=3),
            _line("delay", 36.0, vehicle="coach", city="Oslo", minutes=45),
        ),
        (
            Sign("RUSH HOUR", 0.0, 15.0),
            Sign("KEEP LEFT", 15.0, 32.0),
            Sign("TAXI RANK", 20.0, 48.0, "bottom"),
            Sign("BIKE SHOP", 32.0, 48.0),
        ),
        (),
        ("walrus", "lantern"),
    ),
    Video(
        "car_news",
        Footage("carphone", loops=10, width=352, fps=15),
        36.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("delay", 1.0, vehicle="train", city="Rome", minutes=30),
            _line("meet", 12.0, name="Clara", landmark="fountain", hour=5),
            _line("lost", 24.0, color="brown", item="suitcase", spot="ticket office"),
        ),
        (
            Sign("ON THE ROAD", 0.0, 12.0),
            Sign("SIGNAL LOST", 12.0, 24.0),
            Sign("ARRIVING SOON", 24.0, 36.0, "bottom"),
        ),
        (Count(6.0, 1, 1, "the man in the back seat"), Count(28.0, 1, 1, "the man in the back seat")),
        ("penguin", "harp"),
    ),
    Video(
        "meadow_show",
        Footage("bigbuckbunny", loops=8, width=640, fps=25),
        40.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("event", 2.0, event="puppet show", hour=11, room="basement"),
            _line("code", 14.0, thing="garden gate", code="8146"),
            _line("closed", 27.0, place="bakery", cause="a storm damaged the windows"),
        ),
        (
            Sign("SPRING FESTIVAL", 0.0, 14.0),
            Sign("PUPPET SHOW 11 AM", 14.0, 28.0),
            Sign("BAKERY SHUT", 28.0, 40.0, "bottom"),
        ),
        (Count(5.0, 0, 0, "an animated rabbit, no people"), Count(25.0, 0, 0, "an animated rabbit, no people")),
        ("canoe", "violin"),
    ),
)
HELDOUT2_BY_NAME = {v.name: v for v in HELDOUT2_VIDEOS}


# ------------------------------------------------------------------ the third held-out set (split 'test3')

# Six videos built after the test and test2 splits were spent (issue 23, stop 18), to measure answering
# once more on videos no answering code has seen: two kinds of line no code was written for ('weather',
# and 'change', a platform change said beside 'depart' lines), slot values and sign texts no other set
# uses, other stretches of the same footage, and in the two long videos a second line under the top sign
# and a bottom caption over the top signs. People counts only where vtest_counts_looped gives them. Nothing
# here was asked of the answering code before the one test3 run. As for test2, lines were checked against
# what faster-whisper base writes for them in their video (one ingest, --only tracking,asr,ocr,
# text_embeddings), and words it garbled were replaced before any question was asked: 'yellow ferry' ->
# 'yellow air relieves', 'bus to Warsaw' -> 'mustard Warsaw', 'pink coach' -> 'pink coat', 'Julia' ->
# 'Julie', 'Lucas' -> 'Luke and', 'bike shed' -> 'bike shared', 'back gate' -> 'Mac Gate', 'flight to
# Venice boards at gate nine' -> 'flight to many sports at Gate Island' (now tram, train, train, Henry,
# George, boiler room, kitchen door, London gate 14; sign texts changed with them). Left as they are after
# the second ingest (no third round): 'George' -> 'Jean' in bistro_talk, 'the train to Geneva now leaves'
# -> 'the train doesn't even have leaves' in ferry_terminal (heard right in the first ingest), and
# 'is expected after' -> 'in the back to' / 'in expectant after' in two weather lines (their answer words,
# 'snow', 'fog' and the hour, are heard). Every sign text is read exactly by OCR.
HELDOUT3_VIDEOS: tuple[Video, ...] = (
    Video(
        "ferry_terminal",
        Footage("vtest", 30.0, loops=_looped(30.0, 165.0), width=640),
        165.0,
        VTEST_SCENE,
        (
            _line("weather", 3.0, weather="rain", hour=4),
            _line("depart", 24.0, color="yellow", vehicle="tram", platform=7),
            _line("lost", 47.0, color="purple", item="glove", spot="entrance hall"),
            _line("change", 75.0, vehicle="train", city="Geneva", platform=3),
            _line("closed", 101.0, place="ice rink", cause="the lift is broken"),
            _line("meet", 126.0, name="Henry", landmark="town hall", hour=9),
            _line("code", 150.0, thing="boiler room", code="5072"),
        ),
        (
            Sign("FERRY TERMINAL", 0.0, 22.0),
            Sign("RAIN EXPECTED", 22.0, 45.0),
            Sign("FOUND ITEMS", 45.0, 98.0),
            Sign("NO SMOKING", 60.0, 110.0, "bottom"),
            Sign("ICE RINK CLOSED", 98.0, 165.0),
            Sign("EXIT ON LEFT", 130.0, 165.0, "top2"),
        ),
        vtest_counts_looped(30.0, 165.0),
        ("giraffe", "accordion"),
    ),
    Video(
        "library_night",
        Footage("tree.avi", 2.0, loops=7, width=640, fps=15),
        155.0,
        TREE_SCENE,
        (
            _line("event", 4.0, event="book signing", hour=7, room="north hall"),
            _line("route", 28.0, dest="old town", method="follow the yellow signs"),
            _line("weather", 55.0, weather="snow", hour=10),
            _line("sale", 80.0, goods="candles", hour=8),
            _line("delay", 104.0, vehicle="train", city="Warsaw", minutes=25),
            _line("lost", 130.0, color="black", item="laptop", spot="reading room"),
        ),
        (
            Sign("LIBRARY OPEN", 0.0, 25.0),
            Sign("BOOK SIGNING 7 PM", 25.0, 52.0),
            Sign("SNOW TONIGHT", 52.0, 100.0),
            Sign("SILENCE PLEASE", 70.0, 120.0, "bottom"),
            Sign("TRAINS DELAYED", 100.0, 155.0),
            Sign("CLOSING AT 11", 128.0, 155.0, "top2"),
        ),
        (),
        ("crocodile", "saxophone"),
    ),
    Video(
        "bistro_talk",
        Footage("Megamind.avi", 2.0, loops=6, width=640, fps=12),
        60.0,
        DINNER_SCENE,
        (
            _line("meet", 2.0, name="George", landmark="old oak tree", hour=3),
            _line("price", 18.0, city="Brussels", price=71),
            _line("weather", 34.0, weather="fog", hour=6),
            _line("code", 48.0, thing="kitchen door", code="2853"),
        ),
        (
            Sign("CORNER TABLE", 0.0, 20.0),
            Sign("DESSERT OF THE DAY", 20.0, 42.0),
            Sign("PAY AT THE BAR", 42.0, 60.0, "bottom"),
        ),
        (),
        ("elephant", "cello"),
    ),
    Video(
        "street_corner",
        Footage("bikes", 2.0, loops=5, fps=25),
        45.0,
        BIKES_SCENE,
        (
            _line("delay", 1.0, vehicle="tram", city="Zurich", minutes=15),
            _line("sale", 12.0, goods="scarves", hour=5),
            _line("route", 23.0, dest="beach", method="walk past the fountain"),
            _line("event", 34.0, event="magic show", hour=2, room="garden"),
        ),
        (
            Sign("CITY CENTRE", 0.0, 16.0),
            Sign("SCARVES ON SALE", 16.0, 30.0),
            Sign("BEACH 2 KM", 30.0, 45.0),
            Sign("CYCLE LANE", 10.0, 45.0, "bottom"),
        ),
        (),
        ("kangaroo", "banjo"),
    ),
    Video(
        "taxi_ride",
        Footage("carphone", 1.0, loops=11, width=352, fps=15),
        40.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("closed", 1.0, place="zoo", cause="the pipes are frozen"),
            _line("depart", 14.0, color="pink", vehicle="train", platform=11),
            _line("weather", 27.0, weather="hail", hour=1),
        ),
        (
            Sign("TAXI 42", 0.0, 13.0),
            Sign("ZOO CLOSED", 13.0, 27.0),
            Sign("HAIL LATER", 27.0, 40.0, "bottom"),
        ),
        (),
        ("dolphin", "flute"),
    ),
    Video(
        "rabbit_hill",
        Footage("bigbuckbunny", 1.0, loops=9, width=640, fps=25),
        45.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("lost", 2.0, color="silver", item="notebook", spot="staff room"),
            _line("board", 13.0, city="London", gate=14),
            _line("meet", 24.0, name="Martin", landmark="clock tower", hour=12),
            _line("change", 35.0, vehicle="tram", city="Helsinki", platform=5),
        ),
        (
            Sign("HILL TOP", 0.0, 15.0),
            Sign("GATE 14 BOARDING", 15.0, 30.0),
            Sign("MEET AT NOON", 30.0, 45.0, "bottom"),
        ),
        (),
        ("tractor", "trumpet"),
    ),
)
HELDOUT3_BY_NAME = {v.name: v for v in HELDOUT3_VIDEOS}


# ------------------------------------------------------------------ the fourth held-out set (split 'test4')

# Six videos built after the test, test2 and test3 sets, to measure answering once more on
# videos no answering code has seen: two kinds of line no code was written for ('cancel', a cancelled
# service and where refunds are given; 'menu', the soup of the day and until when it is served), slot
# values and sign texts no other set uses, other stretches of the same footage, and in the two long
# videos a second line under the top sign and a bottom caption over the top signs. People counts only
# where vtest_counts_looped gives them. Nothing here was asked of the answering code before the one test4
# run. As for test3, lines were checked against what faster-whisper base writes for them in their video
# (an ingest of the six, --only tracking,asr,ocr,text_embeddings), and garbled answer words were replaced
# before any question was asked. First ingest: 'bus to Stockholm' -> 'master's talk home', 'bus to
# Copenhagen' -> 'must-a-copen Hager', code 'nine three one seven' -> 'i317', 'Meet Emma' -> 'Meet them',
# 'boards at gate seven' -> 'Board at 8.7', 'olive' -> 'a live' (now tram to Naples, coach to Bristol,
# 5384, Robert, gate fifteen, navy; the sign 'BUSES CANCELLED' with them). Second: 'tram to Naples' ->
# 'tramton apples', 'lentil' (heard right the first time) -> 'rental' (now Glasgow, onion). Third: 'onion'
# -> 'superman day is early' and 'gate fifteen' (heard right the second time) -> '8.15', the context of
# the video's other lines changing what is heard (now gate sixteen, onion kept; checked with --only asr). Left as
# they are after the fourth ingest, no answer word among them: 'coach to Amsterdam' -> 'coach and
# Amsterdam', 'now leaves' -> 'how leaves' / 'are leaves' (airport_hall, burrow_news), 'is expected after'
# -> 'in effect and after' (cinema_lobby), 'boards' -> 'board' (orchard_morning). Every sign text is read
# exactly by OCR.
HELDOUT4_VIDEOS: tuple[Video, ...] = (
    Video(
        "airport_hall",
        Footage("vtest", 45.0, loops=_looped(45.0, 160.0), width=640),
        160.0,
        VTEST_SCENE,
        (
            _line("cancel", 3.0, vehicle="coach", city="Amsterdam", desk="information desk"),
            _line("depart", 26.0, color="gold", vehicle="train", platform=13),
            _line("change", 49.0, vehicle="tram", city="Glasgow", platform=18),
            _line("lost", 72.0, color="violet", item="handbag", spot="changing room"),
            _line("closed", 96.0, place="art gallery", cause="the ceiling collapsed"),
            _line("menu", 120.0, soup="mushroom", hour=3),
            _line("code", 141.0, thing="staff entrance", code="5384"),
        ),
        (
            Sign("DEPARTURES HALL", 0.0, 24.0),
            Sign("COACH CANCELLED", 24.0, 50.0),
            Sign("CHANGING ROOMS", 50.0, 94.0),
            Sign("MIND THE STEP", 62.0, 112.0, "bottom"),
            Sign("GALLERY SHUT", 94.0, 160.0),
            Sign("SOUP AND BREAD", 132.0, 160.0, "top2"),
        ),
        vtest_counts_looped(45.0, 160.0),
        ("hedgehog", "xylophone"),
    ),
    Video(
        "cinema_lobby",
        Footage("Megamind.avi", 4.0, loops=15, width=640, fps=12),
        155.0,
        DINNER_SCENE,
        (
            _line("menu", 4.0, soup="tomato", hour=9),
            _line("event", 27.0, event="chess match", hour=8, room="west wing"),
            _line("cancel", 50.0, vehicle="train", city="Barcelona", desk="booking office"),
            _line("route", 73.0, dest="cathedral", method="follow the red arrows"),
            _line("price", 95.0, city="Hamburg", price=66),
            _line("meet", 117.0, name="Robert", landmark="old mill", hour=11),
            _line("weather", 138.0, weather="frost", hour=12),
        ),
        (
            Sign("NOW SHOWING", 0.0, 25.0),
            Sign("CHESS TONIGHT", 25.0, 70.0),
            Sign("POPCORN 2 FOR 1", 40.0, 100.0, "bottom"),
            Sign("CATHEDRAL TOURS", 70.0, 115.0),
            Sign("FROST WARNING", 115.0, 155.0),
            Sign("WRAP UP WARM", 130.0, 155.0, "top2"),
        ),
        (),
        ("lobster", "mandolin"),
    ),
    Video(
        "orchard_morning",
        Footage("tree.avi", 5.0, loops=2, width=640, fps=15),
        50.0,
        TREE_SCENE,
        (
            _line("closed", 1.5, place="sports hall", cause="the alarm system is faulty"),
            _line("sale", 13.0, goods="kites", hour=4),
            _line("board", 25.0, city="Florence", gate=16),
            _line("menu", 37.0, soup="onion", hour=2),
        ),
        (
            Sign("APPLE HARVEST", 0.0, 14.0),
            Sign("KITES HALF PRICE", 14.0, 36.0),
            Sign("SOUP KITCHEN", 36.0, 50.0, "bottom"),
        ),
        (),
        ("gorilla", "clarinet"),
    ),
    Video(
        "cycle_route",
        Footage("bikes", 3.0, loops=6, fps=25),
        55.0,
        BIKES_SCENE,
        (
            _line("route", 1.0, dest="bus station", method="go through the tunnel under the road"),
            _line("cancel", 14.0, vehicle="tram", city="Edinburgh", desk="service counter"),
            _line("code", 28.0, thing="tool room", code="6153"),
            _line("delay", 41.0, vehicle="coach", city="Milan", minutes=50),
        ),
        (
            Sign("CYCLE ROUTE 4", 0.0, 15.0),
            Sign("TRAMS CANCELLED", 15.0, 38.0),
            Sign("COACH 50 MIN LATE", 38.0, 55.0),
            Sign("SHARE THE ROAD", 10.0, 55.0, "bottom"),
        ),
        (),
        ("flamingo", "tambourine"),
    ),
    Video(
        "phone_update",
        Footage("carphone", 2.0, loops=11, width=352, fps=15),
        40.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("meet", 1.0, name="Daniel", landmark="red phone box", hour=5),
            _line("menu", 14.0, soup="pumpkin", hour=1),
            _line("depart", 27.0, color="cream", vehicle="coach", platform=10),
        ),
        (
            Sign("ON THE PHONE", 0.0, 13.0),
            Sign("BATTERY LOW", 13.0, 27.0),
            Sign("CALL ME BACK", 27.0, 40.0, "bottom"),
        ),
        (),
        ("hamster", "ukulele"),
    ),
    Video(
        "burrow_news",
        Footage("bigbuckbunny", 2.0, loops=10, width=640, fps=25),
        45.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("price", 2.0, city="Budapest", price=47),
            _line("cancel", 13.0, vehicle="coach", city="Bristol", desk="front desk"),
            _line("lost", 24.0, color="navy", item="water bottle", spot="music room"),
            _line("change", 35.0, vehicle="train", city="Munich", platform=20),
        ),
        (
            Sign("BURROW NEWS", 0.0, 12.0),
            Sign("COACHES CANCELLED", 12.0, 30.0),
            Sign("PLATFORM 20", 30.0, 45.0, "bottom"),
        ),
        (),
        ("rhinoceros", "bassoon"),
    ),
)
HELDOUT4_BY_NAME = {v.name: v for v in HELDOUT4_VIDEOS}


# ------------------------------------------------------------------ the fifth held-out set (split 'test5')

# Six videos built after the test, test2, test3 and test4 sets, to measure answering once more on
# videos no answering code has seen: two kinds of line no code was written for ('closing', a shop that
# closes early today and at what hour; 'raffle', a raffle's winning ticket number and its prize), slot
# values and sign texts no other set uses, other stretches of the same footage, and in the two long
# videos a second line under the top sign and a bottom caption over the top signs. People counts only
# where vtest_counts_looped gives them. Nothing here was asked of the answering code before the one test5
# run. As for test4, lines were checked against what faster-whisper base writes for them in their video
# (an ingest of the six, --only tracking,asr,ocr,text_embeddings), and garbled answer words were replaced
# before any question was asked. First ingest: 'Meet Hannah' -> 'Meet him', 'train to Oxford is' -> 'train
# talks for this', 'sundial' -> 'Sun Island', 'back office' -> 'bank office' and 'eight five two seven' ->
# '8.527', 'quiz night' -> 'quizite', 'green footprints' -> 'green foot prints', 'beige raincoat' ->
# 'majoring coat', 'radio' -> 'raid at all', 'gate nineteen' -> 'Gate Iintine', 'two seven three nine' ->
# '273 iron', 'theatre' -> 'theater' (now Edward, Boston, windmill, print room 5814, talent show, walk along
# the river path, bronze lunch box, bicycle, gate twelve, 3682, village hall; the sign 'TALENT SHOW AT 9'
# with them). Second: 'seven two nine one' (heard right the first time) -> '7-2-1. 1.', the context of the
# video's other lines changing what is heard (now 6457). Third: 'six four five seven' -> '6.457' (now 5163).
# Left as they are after the fourth ingest, no answer word among them: 'talent show starts' -> 'talent
# shows charts' (supper_club; 'talent show' is still found in it), 'costs ninety three dollars' -> 'cost
# $93' (supper_club), 'boards' -> 'Board' (hillside_fair). Every sign text is read exactly by OCR.
HELDOUT5_VIDEOS: tuple[Video, ...] = (
    Video(
        "shopping_plaza",
        Footage("vtest", 60.0, loops=_looped(60.0, 165.0), width=640),
        165.0,
        VTEST_SCENE,
        (
            _line("closing", 3.0, shop="pharmacy", hour=6),
            _line("depart", 26.0, color="turquoise", vehicle="train", platform=17),
            _line("raffle", 49.0, ticket=38, prize="television"),
            _line("lost", 72.0, color="crimson", item="briefcase", spot="food court"),
            _line("route", 96.0, dest="university", method="go up the escalator"),
            _line("code", 118.0, thing="fire exit", code="5163"),
            _line("meet", 141.0, name="Edward", landmark="flower stall", hour=4),
        ),
        (
            Sign("PLAZA SHOPS", 0.0, 24.0),
            Sign("RAFFLE DRAW TODAY", 24.0, 50.0),
            Sign("FOOD COURT", 50.0, 94.0),
            Sign("WET FLOOR", 62.0, 112.0, "bottom"),
            Sign("UNIVERSITY THIS WAY", 94.0, 165.0),
            Sign("FIRE EXIT KEEP CLEAR", 132.0, 165.0, "top2"),
        ),
        vtest_counts_looped(60.0, 165.0),
        ("porcupine", "harmonica"),
    ),
    Video(
        "greenhouse_tour",
        Footage("tree.avi", 6.0, loops=6, width=640, fps=15),
        155.0,
        TREE_SCENE,
        (
            _line("event", 4.0, event="yoga class", hour=10, room="south hall"),
            _line("raffle", 27.0, ticket=52, prize="teddy bear"),
            _line("closed", 50.0, place="bowling alley", cause="the toilets are flooded"),
            _line("sale", 73.0, goods="tulips", hour=7),
            _line("delay", 96.0, vehicle="train", city="Boston", minutes=55),
            _line("lost", 119.0, color="maroon", item="walking stick", spot="tea room"),
            _line("meet", 141.0, name="Simon", landmark="windmill", hour=2),
        ),
        (
            Sign("GREENHOUSE TOURS", 0.0, 25.0),
            Sign("TEDDY BEAR RAFFLE", 25.0, 70.0),
            Sign("PLEASE DO NOT TOUCH", 40.0, 100.0, "bottom"),
            Sign("TULIPS HALF PRICE", 70.0, 115.0),
            Sign("TRAINS RUNNING SLOW", 115.0, 155.0),
            Sign("SEEDS FOR SALE", 130.0, 155.0, "top2"),
        ),
        (),
        ("platypus", "oboe"),
    ),
    Video(
        "supper_club",
        Footage("Megamind.avi", 6.0, loops=6, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("closing", 1.5, shop="bank", hour=3),
            _line("code", 13.0, thing="print room", code="5814"),
            _line("event", 25.0, event="talent show", hour=9, room="conference room"),
            _line("price", 37.0, city="Toronto", price=93),
        ),
        (
            Sign("SUPPER CLUB", 0.0, 14.0),
            Sign("TALENT SHOW AT 9", 14.0, 36.0),
            Sign("TIPS WELCOME", 36.0, 50.0, "bottom"),
        ),
        (),
        ("koala", "marimba"),
    ),
    Video(
        "traffic_lights",
        Footage("bikes", 4.0, loops=6, fps=25),
        45.0,
        BIKES_SCENE,
        (
            _line("depart", 1.0, color="crimson", vehicle="tram", platform=22),
            _line("closing", 12.0, shop="hardware store", hour=5),
            _line("route", 23.0, dest="city hall", method="walk along the river path"),
            _line("lost", 34.0, color="bronze", item="lunch box", spot="lecture hall"),
        ),
        (
            Sign("LIGHTS OUT OF ORDER", 0.0, 15.0),
            Sign("CITY HALL 1 KM", 15.0, 32.0),
            Sign("GIVE WAY", 32.0, 45.0),
            Sign("WATCH FOR CYCLISTS", 10.0, 45.0, "bottom"),
        ),
        (),
        ("ostrich", "sitar"),
    ),
    Video(
        "backseat_call",
        Footage("carphone", 3.0, loops=12, width=352, fps=15),
        40.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("meet", 1.0, name="Lucy", landmark="taxi stand", hour=7),
            _line("raffle", 14.0, ticket=61, prize="bicycle"),
            _line("closed", 27.0, place="skate park", cause="the wiring is being replaced"),
        ),
        (
            Sign("STUCK IN TRAFFIC", 0.0, 13.0),
            Sign("RADIO ON", 13.0, 27.0),
            Sign("NEXT EXIT 3 KM", 27.0, 40.0, "bottom"),
        ),
        (),
        ("llama", "didgeridoo"),
    ),
    Video(
        "hillside_fair",
        Footage("bigbuckbunny", 3.0, loops=11, width=640, fps=25),
        50.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("raffle", 1.5, ticket=74, prize="picnic basket"),
            _line("board", 13.0, city="Chicago", gate=12),
            _line("code", 25.0, thing="tool shed", code="3682"),
            _line("closed", 37.0, place="village hall", cause="a tree fell on the roof"),
        ),
        (
            Sign("HILLSIDE FAIR", 0.0, 12.0),
            Sign("RAFFLE WINNERS", 12.0, 30.0),
            Sign("KEEP OFF THE GRASS", 30.0, 50.0, "bottom"),
        ),
        (),
        ("beaver", "harpsichord"),
    ),
)
HELDOUT5_BY_NAME = {v.name: v for v in HELDOUT5_VIDEOS}


# ------------------------------------------------------------------ the sixth held-out set (split 'test6')

# Six videos built after the test, test2, test3, test4 and test5 sets, to measure answering once more on
# videos no answering code has seen: two kinds of line no code was written for ('pet', a missing pet, its
# name and where it went missing; 'parking', a street whose parked cars are towed after an hour), slot
# values and sign texts no other set uses, other stretches of the same footage, and in the two long
# videos a second line under the top sign and a bottom caption over the top signs. People counts where
# vtest gives them, and for the car (one man) and the rabbit (no people). Its questions are also asked in
# phrasings no earlier set uses (heldout.py NEW_PHRASINGS, tagged "phrasing": "new"). Nothing here was
# asked of the answering code before the one test6 run. As for test5, lines were checked against what
# faster-whisper base writes for them in their video (an ingest of the six, --only
# tracking,asr,ocr,text_embeddings), and garbled answer words were replaced before any question was asked.
# First ingest: 'Queen Street' -> "Queen's treat" and 'towed' -> 'told' (two of the three parking lines),
# 'bike store' -> 'mic store', 'Meet Grace at the bus shelter' -> 'Meet race at the most shelter',
# 'Liverpool' -> 'live a pool', 'amber train leaves' -> 'number train leads', 'indigo' -> 'Indido',
# 'rucksack' -> 'rug sack', 'drains' -> 'trains', 'boating lake' -> 'building lake', 'eight zero three
# five' -> '8.035', 'sleet' -> 'sleep', 'costs eighty one dollars' -> 'cost $1' (now Elm Street, 'towed
# away', laundry room, Patrick at the ticket machine, Manchester, magenta, copper, guitar case, the boiler
# has broken down, rose garden, 3526, mist, thirty four; the signs 'ROSE GARDEN' and 'MIST LATER' with
# them). Second: 'at one o'clock' (heard right the first time) -> 'at work log', 'white posts' -> 'white
# post' (now three o'clock, the wooden fence). Third: 'towed away' -> 'told away' (campus_notices),
# 'wooden fence' -> 'world and fence' (now '... after N o'clock will be towed away', the stone wall;
# checked with --only asr, then the fourth ingest). Left as they are after the fourth ingest, no answer
# word among them: 'costs thirty four dollars' -> 'cost $34' (warren_notice), 'soup of the day' -> 'soup
# on the day' (warren_notice), 'leaves' -> 'leads' (lamp_post_square). Every
# sign text is read exactly by OCR.
HELDOUT6_VIDEOS: tuple[Video, ...] = (
    Video(
        "campus_notices",
        Footage("vtest", 15.0, loops=_looped(15.0, 160.0), width=640),
        160.0,
        VTEST_SCENE,
        (
            _line("pet", 3.0, color="ginger", animal="cat", pet="Biscuit", area="bicycle racks"),
            _line("parking", 26.0, street="Elm Street", hour=8),
            _line("closed", 49.0, place="aquarium", cause="a gas pipe is leaking"),
            _line("route", 72.0, dest="science park", method="cross the bridge by the lake"),
            _line("code", 96.0, thing="laundry room", code="2716"),
            _line("lost", 119.0, color="scarlet", item="tennis racket", spot="first aid room"),
            _line("meet", 141.0, name="Patrick", landmark="ticket machine", hour=3),
        ),
        (
            Sign("CAMPUS NOTICE BOARD", 0.0, 24.0),
            Sign("TOW AWAY ZONE", 24.0, 50.0),
            Sign("AQUARIUM CLOSED", 50.0, 94.0),
            Sign("MIND YOUR BAGS", 62.0, 112.0, "bottom"),
            Sign("SCIENCE PARK", 94.0, 160.0),
            Sign("MEETING POINT", 132.0, 160.0, "top2"),
        ),
        vtest_counts_looped(15.0, 160.0),
        ("armadillo", "cornet"),
    ),
    Video(
        "movie_night",
        Footage("Megamind.avi", 8.0, loops=15, width=640, fps=12),
        155.0,
        DINNER_SCENE,
        (
            _line("parking", 4.0, street="Orchard Road", hour=10),
            _line("event", 27.0, event="pottery class", hour=7, room="studio"),
            _line("pet", 50.0, color="brown", animal="dog", pet="Pepper", area="playground"),
            _line("closed", 73.0, place="planetarium", cause="the dome is being cleaned"),
            _line("sale", 96.0, goods="muffins", hour=9),
            _line("delay", 119.0, vehicle="coach", city="Manchester", minutes=70),
            _line("depart", 140.0, color="magenta", vehicle="train", platform=24),
        ),
        (
            Sign("FILM CLUB", 0.0, 25.0),
            Sign("POTTERY AT 7", 25.0, 70.0),
            Sign("NO FLASH PHOTOGRAPHY", 40.0, 100.0, "bottom"),
            Sign("MUFFINS HALF PRICE", 70.0, 115.0),
            Sign("COACHES RUNNING LATE", 115.0, 155.0),
            Sign("LAST SHOW 10 PM", 130.0, 155.0, "top2"),
        ),
        (),
        ("chameleon", "bugle"),
    ),
    Video(
        "lamp_post_square",
        Footage("vtest", 20.0),
        50.0,
        VTEST_SCENE,
        (
            _line("parking", 1.5, street="Mill Lane", hour=11),
            _line("depart", 13.0, color="copper", vehicle="tram", platform=23),
            _line("lost", 25.0, color="khaki", item="guitar case", spot="chapel"),
            _line("closed", 37.0, place="youth club", cause="the boiler has broken down"),
        ),
        (
            Sign("PAY AND DISPLAY", 0.0, 14.0),
            Sign("CLAMPING IN FORCE", 14.0, 36.0),
            Sign("CCTV IN OPERATION", 36.0, 50.0, "bottom"),
        ),
        vtest_counts(20.0, 50.0),
        ("narwhal", "cymbal"),
    ),
    Video(
        "window_rain",
        Footage("tree.avi", 7.0, loops=2, width=640, fps=15),
        45.0,
        TREE_SCENE,
        (
            _line("route", 1.0, dest="rose garden", method="follow the stone wall"),
            _line("pet", 12.0, color="green", animal="parrot", pet="Kiwi", area="duck pond"),
            _line("code", 23.0, thing="pump house", code="3526"),
            _line("weather", 34.0, weather="mist", hour=5),
        ),
        (
            Sign("ROSE GARDEN", 0.0, 14.0),
            Sign("HAVE YOU SEEN KIWI", 14.0, 32.0),
            Sign("MIST LATER", 32.0, 45.0),
            Sign("STAY ON THE PATHS", 10.0, 45.0, "bottom"),
        ),
        (),
        ("gazelle", "lute"),
    ),
    Video(
        "rear_seat_chat",
        Footage("carphone", 4.0, loops=12, width=352, fps=15),
        40.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("closed", 1.0, place="car wash", cause="the water has been switched off"),
            _line("meet", 14.0, name="Oscar", landmark="petrol station", hour=6),
            _line("route", 27.0, dest="ferry port", method="take the second exit at the roundabout"),
        ),
        (
            Sign("HANDS FREE", 0.0, 13.0),
            Sign("RECALCULATING", 13.0, 27.0),
            Sign("ROUNDABOUT AHEAD", 27.0, 40.0, "bottom"),
        ),
        (
            Count(5.0, 1, 1, "the man in the back seat"),
            Count(20.0, 1, 1, "the man in the back seat"),
            Count(33.0, 1, 1, "the man in the back seat"),
        ),
        ("jaguar", "kazoo"),
    ),
    Video(
        "warren_notice",
        Footage("bigbuckbunny", 4.0, loops=10, width=640, fps=25),
        45.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("price", 1.5, city="Cardiff", price=34),
            _line("event", 13.0, event="egg hunt", hour=11, room="orchard"),
            _line("menu", 25.0, soup="chicken", hour=3),
            _line("code", 36.0, thing="feed store", code="4290"),
        ),
        (
            Sign("WARREN NEWS", 0.0, 12.0),
            Sign("EGG HUNT TODAY", 12.0, 30.0),
            Sign("MIND THE BURROWS", 30.0, 45.0, "bottom"),
        ),
        (
            Count(6.0, 0, 0, "an animated rabbit, no people"),
            Count(22.0, 0, 0, "an animated rabbit, no people"),
            Count(40.0, 0, 0, "an animated rabbit, no people"),
        ),
        ("pelican", "fiddle"),
    ),
)
HELDOUT6_BY_NAME = {v.name: v for v in HELDOUT6_VIDEOS}


# ------------------------------------------------------------------ the seventh held-out set (split 'test7')

# Six videos built after the test .. test6 sets, to measure answering once more on videos no answering
# code has seen: two kinds of line no code was written for ('found', an item handed in at a desk; 'shuttle',
# a free shuttle bus, where it goes and how often), slot values and sign texts no other set uses, other
# stretches of the same footage (vtest from 55 s and 5 s, Megamind from 9 s, carphone, bigbuckbunny and bikes
# from 5 s), and in the two long videos a second line under the top sign and a bottom caption over the top
# signs. People counts where vtest gives them, and for the car (one man) and the rabbit (no people). Half of
# each type's open questions are asked in phrasings no earlier set uses (heldout.py NEW7_*, tagged
# "phrasing": "new"). Nothing here was asked of the answering code before the one test7 run. As for test6,
# lines were checked against what faster-whisper base writes for them in their video (ingests of the six,
# --only asr,ocr, then the final one --only tracking,asr,ocr,text_embeddings into /tmp/test7.duckdb), and
# garbled answer words were replaced before any question was asked. First ingest: 'The code for the back
# office is six three nine one' -> 'The code for the Mac office is 6-3-1', 'war memorial' -> 'warm
# memorial' (town_square_bulletin), 'football ground' -> 'foot all round', 'the bike cage is eight two six
# four' -> 'the mic KG-8264' (courtyard_noon), 'beige' -> 'major' (passenger_call), 'sack race' -> 'pack
# race', 'The petting farm is closed today because a fence blew down' -> 'The padding farm is closed today
# because of end slew down' (grassy_knoll), 'peach' -> 'beach', 'shutters' -> 'sugars' (kerbside_bulletin)
# (now the staff kitchen and 5837, the stone bench, the water park, the green door, lemon, the tug of war,
# the city farm because the paths are flooded, dark green, the lock is broken; the signs 'TUG OF WAR AT 2'
# and 'CITY FARM CLOSED' and the stem 'warrior'/'war' with them). Second (the five changed videos): 'the
# green door is eight two six four' -> 'the green bar in 8264' (now the main office; checked with --only
# asr, then the final ingest). Left as it is, no answer word in it: 'shuttle bus to the golf course' ->
# 'shuttle muster the golf course' (town_square_bulletin; 'golf course' and '12 minutes' are heard).
# Numbers are written as digits ('every 12 minutes', 'platform 19', '5-8-3-7', 'number 83'). Every sign
# text is read exactly by OCR; it also reads one stray '4O' off the footage at 1:49 in lounge_screening.
HELDOUT7_VIDEOS: tuple[Video, ...] = (
    Video(
        "town_square_bulletin",
        Footage("vtest", 55.0, loops=_looped(55.0, 160.0), width=640),
        160.0,
        VTEST_SCENE,
        (
            _line("found", 3.0, color="lavender", item="raincoat", desk="reception desk"),
            _line("shuttle", 26.0, dest="golf course", minutes=12),
            _line("closed", 49.0, place="observatory", cause="the lights have failed"),
            _line("route", 72.0, dest="theme park", method="keep right at the fork"),
            _line("code", 96.0, thing="staff kitchen", code="5837"),
            _line("meet", 119.0, name="Rachel", landmark="stone bench", hour=4),
            _line("event", 141.0, event="choir practice", hour=7, room="common room"),
        ),
        (
            Sign("RECEPTION OPEN", 0.0, 24.0),
            Sign("SHUTTLE EVERY 12 MIN", 24.0, 50.0),
            Sign("OBSERVATORY CLOSED", 50.0, 94.0),
            Sign("NO BALL GAMES", 62.0, 112.0, "bottom"),
            Sign("THEME PARK THIS WAY", 94.0, 160.0),
            Sign("CHOIR AT 7", 132.0, 160.0, "top2"),
        ),
        vtest_counts_looped(55.0, 160.0),
        ("wombat", "bongos"),
    ),
    Video(
        "lounge_screening",
        Footage("Megamind.avi", 9.0, loops=15, width=640, fps=12),
        155.0,
        DINNER_SCENE,
        (
            _line("shuttle", 4.0, dest="nature reserve", minutes=8),
            _line("closed", 27.0, place="tennis club", cause="the doors are jammed"),
            _line("found", 50.0, color="mint", item="skateboard", desk="security office"),
            _line("price", 73.0, city="Copenhagen", price=56),
            _line("route", 96.0, dest="marina", method="take the footbridge over the railway"),
            _line("depart", 119.0, color="lime", vehicle="tram", platform=19),
            _line("closed", 140.0, place="climbing wall", cause="the mats are being replaced"),
        ),
        (
            Sign("TONIGHT IN THE LOUNGE", 0.0, 25.0),
            Sign("TENNIS CLUB SHUT", 25.0, 70.0),
            Sign("PHONES ON SILENT", 40.0, 100.0, "bottom"),
            Sign("ASK AT SECURITY", 70.0, 115.0),
            Sign("MARINA FOOTBRIDGE", 115.0, 155.0),
            Sign("DOORS CLOSE 11 PM", 130.0, 155.0, "top2"),
        ),
        (),
        ("meerkat", "glockenspiel"),
    ),
    Video(
        "courtyard_noon",
        Footage("vtest", 5.0),
        45.0,
        VTEST_SCENE,
        (
            _line("shuttle", 1.5, dest="water park", minutes=6),
            _line("route", 13.0, dest="cricket ground", method="go past the library"),
            _line("closed", 25.0, place="concert hall", cause="the stage is being repaired"),
            _line("code", 36.0, thing="main office", code="8264"),
        ),
        (
            Sign("FREE SHUTTLE", 0.0, 14.0),
            Sign("CONCERT HALL SHUT", 14.0, 36.0),
            Sign("KEEP GATES CLOSED", 36.0, 45.0, "bottom"),
        ),
        vtest_counts(5.0, 45.0),
        ("toucan", "castanets"),
    ),
    Video(
        "passenger_call",
        Footage("carphone", 5.0, loops=12, width=352, fps=15),
        40.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("found", 1.0, color="lemon", item="football", desk="station office"),
            _line("meet", 14.0, name="Victor", landmark="toll booth", hour=5),
            _line("closing", 27.0, shop="toy shop", hour=4),
        ),
        (
            Sign("SPEAKER ON", 0.0, 13.0),
            Sign("TOLL BOOTH 1 KM", 13.0, 27.0),
            Sign("TOY SHOP CLOSING", 27.0, 40.0, "bottom"),
        ),
        (
            Count(6.0, 1, 1, "the man in the back seat"),
            Count(20.0, 1, 1, "the man in the back seat"),
            Count(34.0, 1, 1, "the man in the back seat"),
        ),
        ("lemur", "harmonium"),
    ),
    Video(
        "grassy_knoll",
        Footage("bigbuckbunny", 5.0, loops=10, width=640, fps=25),
        45.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("event", 1.5, event="tug of war", hour=2, room="paddock"),
            _line("closed", 13.0, place="city farm", cause="the paths are flooded"),
            _line("shuttle", 25.0, dest="village green", minutes=9),
            _line("raffle", 36.0, ticket=83, prize="scooter"),
        ),
        (
            Sign("TUG OF WAR AT 2", 0.0, 12.0),
            Sign("CITY FARM CLOSED", 12.0, 30.0),
            Sign("SHUTTLE TO THE GREEN", 30.0, 45.0, "bottom"),
        ),
        (
            Count(7.0, 0, 0, "an animated rabbit, no people"),
            Count(21.0, 0, 0, "an animated rabbit, no people"),
            Count(39.0, 0, 0, "an animated rabbit, no people"),
        ),
        ("bison", "ocarina"),
    ),
    Video(
        "kerbside_bulletin",
        Footage("bikes", 5.0, loops=6, fps=25),
        50.0,
        BIKES_SCENE,
        (
            _line("found", 1.0, color="dark green", item="sketchbook", desk="help desk"),
            _line("route", 13.0, dest="railway station", method="follow the green arrows"),
            _line("delay", 25.0, vehicle="coach", city="Stockholm", minutes=65),
            _line("closed", 37.0, place="repair shop", cause="the lock is broken"),
        ),
        (
            Sign("HELP DESK OPEN", 0.0, 12.0),
            Sign("STATION VIA GREEN ARROWS", 12.0, 30.0),
            Sign("COACH 65 MIN LATE", 24.0, 36.0, "bottom"),
            Sign("REPAIR SHOP SHUT", 30.0, 50.0),
        ),
        (),
        ("iguana", "zither"),
    ),
)
HELDOUT7_BY_NAME = {v.name: v for v in HELDOUT7_VIDEOS}


# ------------------------------------------------------------------ the eighth held-out set (videos only)

# Five videos built after the test .. test7 sets, whose questions are written by hand from a plain facts
# sheet by someone who never sees the code (so no generator writes a JSONL for them: `python -m bench.qset
# heldout8` builds the videos only). Six kinds of line no code was written for ('restop', 'hire', 'warning',
# 'award', 'roadshut', 'floors'), slot values and sign texts no other set uses, other stretches of the same
# footage (vtest from 35 s, Megamind from 3 s, carphone from 1.5 s, bigbuckbunny from 2.5 s, bikes from
# 6 s), and in the two long videos a second line under the top sign and bottom captions over the top signs.
# People counts where vtest gives them, and for the car (one man) and the rabbit (no people). As for test7,
# lines were checked against what faster-whisper base writes for them in their video (ingests --only asr,ocr,
# then the final one --only tracking,asr,ocr,text_embeddings into /tmp/test8_mem.duckdb), and garbled words
# were replaced before the facts sheet was written. First ingest: 'won the' -> 'the one' ('Fiona won the
# quiz night' -> 'Fill the one the quiz height', 'Wendy won' -> 'When the one'), 'tonight' -> 'to 9', 'it
# now stops' -> 'it out stops', 'ground floor' -> 'round floor', 'bus to Oxford' -> 'bus talks for',
# 'night market' -> 'height market', 'bandstand' -> 'men's 10', 'Venice' -> 'men's', 'baking' -> 'making',
# 'east stairs' -> 'these stairs', 'stables' -> 'tables', 'meadow' -> 'middle', 'boathouse' -> 'boat house'
# (now 'The X was won by NAME, with N points', 'this evening', 'it stops at the X instead', the first and
# second floor, the pub quiz, the food market, Singapore, the main stairs, the riding school, the big field,
# the lake). Second: 'dance contest was won by Nadia' -> 'man's contest was won by audio', 'car showroom' ->
# 'car show', 'Julia' -> 'Julie' (now the singing contest won by Caroline, the police station, Andrew).
# Third (the faster-whisper text of a line hangs on the lines before it): 'bus to Cambridge' -> 'muster came
# bridge', 'water tower' -> 'Walter Tower', 'canteen' -> 'cantile'; fourth: 'tennis courts' -> 'tennis court'
# (now the coach, the tennis court, the coffee bar). Left as it is, no answer word in it: 'The coach to
# Cambridge' -> 'The coach took a Cambridge' (forecourt_announcements). Every sign text is read exactly by OCR;
# it also reads one stray '三' off the footage at 0:54 in forecourt_announcements.
HELDOUT8_VIDEOS: tuple[Video, ...] = (
    Video(
        "forecourt_announcements",
        Footage("vtest", 35.0, loops=_looped(35.0, 165.0), width=640),
        165.0,
        VTEST_SCENE,
        (
            _line("hire", 3.0, spot="lake", hire="rowing boats", price=14),
            _line("restop", 24.0, vehicle="coach", city="Cambridge", old_stop="old school", new_stop="fire station"),
            _line("warning", 46.0, hazard="broken glass", location="south path", advice="use the north gate"),
            _line("closed", 68.0, place="art school", cause="the windows are being replaced"),
            _line("award", 90.0, name="Fiona", contest="pub quiz", score=47),
            _line("meet", 112.0, name="Andrew", landmark="tennis court", hour=10),
            _line("floors", 134.0, room_a="coffee bar", floor_a="first", room_b="computer room", floor_b="third"),
            _line("price", 154.0, city="Singapore", price=26),
        ),
        (
            Sign("BOATS FOR HIRE", 0.0, 22.0),
            Sign("COACH STOP MOVED", 22.0, 62.0),
            Sign("MIND THE BROKEN GLASS", 44.0, 80.0, "bottom"),
            Sign("ART SCHOOL CLOSED", 62.0, 104.0),
            Sign("PUB QUIZ RESULTS", 104.0, 165.0),
            Sign("MEET AT THE TENNIS COURT", 110.0, 132.0, "top2"),
            Sign("STREET PARTY AT 8", 145.0, 165.0, "bottom"),
        ),
        vtest_counts_looped(35.0, 165.0),
        ("alpaca", "trampoline"),
    ),
    Video(
        "candlelit_dinner",
        Footage("Megamind.avi", 3.0, loops=15, width=640, fps=12),
        155.0,
        DINNER_SCENE,
        (
            _line("roadshut", 4.0, hour=9, street="Castle Street", reason="food market"),
            _line("restop", 27.0, vehicle="ferry", city="Naples", old_stop="fish market", new_stop="sailing club"),
            _line("hire", 50.0, spot="bike shed", hire="electric bikes", price=11),
            _line("award", 73.0, name="Caroline", contest="singing contest", score=91),
            _line("warning", 96.0, hazard="wet paint", location="main stairs", advice="use the lift"),
            _line("lost", 119.0, color="tartan", item="flask", spot="picnic area"),
            _line("floors", 140.0, room_a="nursery", floor_a="second", room_b="roof terrace", floor_b="fifth"),
        ),
        (
            Sign("CASTLE STREET CLOSED", 0.0, 25.0),
            Sign("FERRY STOP CHANGED", 25.0, 48.0),
            Sign("ELECTRIC BIKES", 48.0, 90.0),
            Sign("WET PAINT", 60.0, 118.0, "bottom"),
            Sign("SINGING CONTEST WINNER", 90.0, 155.0),
            Sign("LAST ORDERS 10 PM", 120.0, 155.0, "bottom"),
            Sign("ROOF TERRACE OPEN", 136.0, 155.0, "top2"),
        ),
        (),
        ("otter", "catamaran"),
    ),
    Video(
        "chauffeur_call",
        Footage("carphone", 1.5, loops=12, width=352, fps=15),
        45.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("roadshut", 1.0, hour=10, street="Bridge Road", reason="fun run"),
            _line("meet", 15.0, name="Barbara", landmark="bus depot", hour=2),
            _line("warning", 29.0, hazard="thick fog", location="motorway", advice="drive slowly"),
        ),
        (
            Sign("ROAD CLOSED FROM 10", 0.0, 14.0),
            Sign("BUS DEPOT 2 KM", 14.0, 28.0),
            Sign("FOG WARNING", 28.0, 45.0, "bottom"),
        ),
        (
            Count(5.0, 1, 1, "the man in the back seat"),
            Count(20.0, 1, 1, "the man in the back seat"),
            Count(38.0, 1, 1, "the man in the back seat"),
        ),
        ("panda", "typewriter"),
    ),
    Video(
        "burrow_morning",
        Footage("bigbuckbunny", 2.5, loops=10, width=640, fps=25),
        48.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("award", 1.5, name="Wendy", contest="flower show", score=68),
            _line("hire", 16.0, spot="riding school", hire="ponies", price=20),
            _line("event", 31.0, event="kite festival", hour=1, room="big field"),
        ),
        (
            Sign("FLOWER SHOW WINNER", 0.0, 15.0),
            Sign("PONY RIDES", 15.0, 32.0),
            Sign("KITE FESTIVAL AT 1", 30.0, 48.0, "bottom"),
        ),
        (
            Count(8.0, 0, 0, "an animated rabbit, no people"),
            Count(24.0, 0, 0, "an animated rabbit, no people"),
            Count(40.0, 0, 0, "an animated rabbit, no people"),
        ),
        ("mongoose", "telescope"),
    ),
    Video(
        "crossing_street",
        Footage("bikes", 6.0, loops=6, fps=25),
        50.0,
        BIKES_SCENE,
        (
            _line("restop", 1.0, vehicle="tram", city="Montreal", old_stop="flower market", new_stop="police station"),
            _line("warning", 17.0, hazard="loose gravel", location="steep hill", advice="slow down"),
            _line("route", 33.0, dest="ski slope", method="take the cable car from the square"),
        ),
        (
            Sign("TRAM STOP MOVED", 0.0, 16.0),
            Sign("LOOSE GRAVEL", 16.0, 33.0),
            Sign("SKI SLOPE 5 KM", 30.0, 50.0, "bottom"),
        ),
        (),
        ("reindeer", "chandelier"),
    ),
)
HELDOUT8_BY_NAME = {v.name: v for v in HELDOUT8_VIDEOS}


# ------------------------------------------------------------------ the ninth held-out set (videos only)

# Four videos built after the eighth set, whose questions are written by hand from a plain facts sheet
# (heldout9_facts.md) by someone who never sees the code, like the eighth: `python -m bench.qset heldout9`
# builds the videos only. Seven kinds of line no code was written for ('moved', 'welcome', 'compare',
# 'except', 'left', 'recommend', 'steps') and one older kind ('delay') with new values; names, slot values
# and sign texts no other set uses; other stretches of footage whose people counts are hand-checked (vtest
# looped from 65 s and vtest from 12 s, bigbuckbunny from 1.5 s, carphone from 2.5 s), and in the two long
# videos a second line under the top sign and bottom captions over the top signs. As for the eighth set,
# lines were checked against what faster-whisper base writes for them in their video (ingests --only asr,ocr,
# then the final one --only tracking,asr,ocr,text_embeddings into /tmp/t9/mem.duckdb), and garbled words were
# replaced before the facts sheet was written. First ingest: 'darts match' -> 'art smash', 'lemon cake' ->
# 'Ramen Cake', 'Sheffield' -> 'Chaffee', 'nineteen tents' -> '1910s', 'wooden bridge' -> 'wilderness
# bridge', 'jazz night' -> 'jazz height', 'a bunch of daffodils costs nine dollars' -> 'a bunch of maffa deals
# cost $1', 'Roller skating' -> 'Rollerscaping', 'vegetable curry' -> 'manageable curry' (now the bingo game,
# apple crumble, Belfast, sleeping bags, the stone bridge, the salsa class, a paper lantern, eating in the
# market hall except on the balcony, lamb stew). Second (the text of a line hangs on the lines before it):
# 'small pizza costs' -> 'small piece of cost' (read right the first time), 'Belfast' -> 'Melfast', 'sleeping
# bags' -> 'sleeping mags', 'paper lantern costs nine dollars' -> '$1' again, 'lamb stew at' -> 'lamps to'
# (now a bowl of noodles and a plate of pasta, Brighton, tickets, twelve dollars, beef burger); third:
# 'comedy night' -> 'comedy eye' (read right twice before; now the comedy show). Signs changed with them
# (BINGO AT 4, NOODLE BAR, SALSA CLASS, LANTERNS AND HONEY, NO FOOD IN THE HALL, COMEDY SHOW). Left as they
# are, no answer word in them: 'costs' -> 'cost' (quad_noticeboard, walkway_notices) and 'then turn left',
# 'then follow' -> 'and turn left', 'and follow'. Every sign text is read exactly by OCR, with no stray text.
HELDOUT9_VIDEOS: tuple[Video, ...] = (
    Video(
        "quad_noticeboard",
        Footage("vtest", 65.0, loops=_looped(65.0, 160.0), width=640),
        160.0,
        VTEST_SCENE,
        (
            _line("moved", 3.0, occasion="bingo game", old_hour=2, hour=4),
            _line("welcome", 23.0, name="Harriet", role="captain", team="hockey team"),
            _line("compare", 44.0, item_a="bowl of noodles", price_a=8, item_b="plate of pasta", price_b=13),
            _line("except", 65.0, activity="Cycling", area="sculpture park", exception="on the main path"),
            _line("left", 86.0, count=32, things="seats", occasion="comedy show"),
            _line("recommend", 107.0, dish="apple crumble", venue="garden cafe", reason="it is baked every morning"),
            _line("steps", 128.0, step_a="through the archway", step_b="turn left at the red door", dest="art studio"),
            _line("delay", 148.0, vehicle="train", city="Brighton", minutes=18),
        ),
        (
            Sign("BINGO AT 4", 0.0, 21.0),
            Sign("HOCKEY TEAM CAPTAIN", 21.0, 42.0),
            Sign("NOODLE BAR", 36.0, 62.0, "bottom"),
            Sign("NO CYCLING IN THE PARK", 42.0, 84.0),
            Sign("COMEDY SHOW", 84.0, 160.0),
            Sign("32 SEATS LEFT", 86.0, 120.0, "top2"),
            Sign("ART STUDIO OPEN", 125.0, 160.0, "bottom"),
        ),
        vtest_counts_looped(65.0, 160.0),
        ("zeppelin", "gondola"),
    ),
    Video(
        "hilltop_radio",
        Footage("bigbuckbunny", 1.5, loops=31, width=640, fps=25),
        155.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("welcome", 2.0, name="Gregory", role="manager", team="rugby club"),
            _line("moved", 24.0, occasion="cheese fair", old_hour=11, hour=3),
            _line("left", 46.0, count=19, things="tickets", occasion="summer camp"),
            _line("except", 68.0, activity="Fishing", area="mill pond", exception="with a permit"),
            _line("compare", 90.0, item_a="cup of tea", price_a=3, item_b="hot chocolate", price_b=5),
            _line("recommend", 111.0, dish="plum tart", venue="village shop", reason="it is made with local fruit"),
            _line("steps", 133.0, step_a="over the stone bridge", step_b="follow the stream", dest="old barn"),
        ),
        (
            Sign("RUGBY CLUB NEWS", 0.0, 22.0),
            Sign("CHEESE FAIR AT 3", 22.0, 44.0),
            Sign("SUMMER CAMP", 40.0, 80.0, "bottom"),
            Sign("FISHING BY PERMIT", 44.0, 88.0),
            Sign("VILLAGE SHOP", 88.0, 155.0),
            Sign("FRESH PLUM TART", 108.0, 130.0, "top2"),
            Sign("OLD BARN 6 KM", 128.0, 155.0, "bottom"),
        ),
        tuple(Count(t, 0, 0, "an animated rabbit, no people") for t in (10.0, 50.0, 95.0, 140.0)),
        ("chinchilla", "toboggan"),
    ),
    Video(
        "minicab_news",
        Footage("carphone", 2.5, loops=13, width=352, fps=15),
        45.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("moved", 1.0, occasion="school play", old_hour=7, hour=9),
            _line("left", 15.0, count=6, things="places", occasion="salsa class"),
            _line("welcome", 29.0, name="Rupert", role="leader", team="drama club"),
        ),
        (
            Sign("SCHOOL PLAY AT 9", 0.0, 14.0),
            Sign("SALSA CLASS", 14.0, 28.0),
            Sign("DRAMA CLUB", 27.0, 45.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (6.0, 21.0, 37.0)),
        ("metronome", "hammock"),
    ),
    Video(
        "walkway_notices",
        Footage("vtest", 12.0),
        50.0,
        VTEST_SCENE,
        (
            _line("compare", 1.0, item_a="paper lantern", price_a=12, item_b="jar of honey", price_b=7),
            _line("except", 17.0, activity="Eating", area="market hall", exception="on the balcony"),
            _line("recommend", 33.0, dish="beef burger", venue="corner cafe", reason="it is cheap and very tasty"),
        ),
        (
            Sign("LANTERNS AND HONEY", 0.0, 16.0),
            Sign("NO FOOD IN THE HALL", 16.0, 32.0),
            Sign("CORNER CAFE", 30.0, 50.0, "bottom"),
        ),
        vtest_counts(12.0, 50.0),
        ("periscope", "jellyfish"),
    ),
)
HELDOUT9_BY_NAME = {v.name: v for v in HELDOUT9_VIDEOS}


# ------------------------------------------------------------------ the tenth held-out set (videos only)

# Five videos built after the ninth set, whose questions are written by hand from a plain facts sheet
# (heldout10_facts.md) by someone who never sees the code, like the eighth and the ninth: `python -m
# bench.qset heldout10` builds the videos only. Seven kinds of line no code was written for ('replace',
# 'deadline', 'rainplan', 'placed', 'bring', 'hours', 'programme') and one older kind ('closing') with new
# values; names, slot values and sign texts no other set uses; other stretches of footage (vtest looped from
# 68 s and vtest from 22 s, bigbuckbunny from 3.5 s, carphone from 3.5 s, bikes from 7 s), people counts where
# they are hand-checked (vtest, the car's one man, the rabbit's none), and in the two long videos a second
# line under the top sign, bottom captions over the top signs and top signs that change while a line is said.
# As for the ninth set, lines were checked against what faster-whisper base writes for them in their video
# (ingests --only asr,ocr into /tmp/h10check*.duckdb), and garbled words were replaced before the facts sheet
# was written. First ingest (all five): 'Entries for the' -> 'And treat(s) for the' in all four deadline lines
# (the kind now says 'The last day to enter the X is DAY'), 'Rebecca' -> 'Remekka', 'wheelbarrow race' ->
# 'wheel marrow race', 'petting farm' -> 'padding farm', 'from nine in the morning' -> 'from night', 'bus
# shelter' -> 'must shelter', 'sheepdog display' -> 'sheep dog display', 'in the station yard' -> 'invitation
# yard', 'prize giving' -> 'price giving', 'drinks reception' -> 'drink reception', 'lecture theatre' ->
# 'lecture theater', 'games room' -> "game's room", 'bookshop' -> 'book shop' (now Jessica and the obstacle
# race, the farm shop from seven until five, the high street, a dog show, the town square, the awards dinner
# with a speech by the mayor, the dining hall, the dance studio, the chemist). Second (all five): 'awards
# dinner' -> "world's dinner", 'dining hall' -> 'dining halls', 'craft fair' -> 'craft fare' (read right the
# first time); third (those two videos): none (now the charity dinner, the school library, the garden party).
# Signs changed with them (OBSTACLE RACE, FARM SHOP, OPEN 7 TO 5, DANCE STUDIO, CHARITY DINNER AT 8, GARDEN
# PARTY). Left as it is, no answer word in it: 'the scarecrow contest is Friday' -> 'contest in Friday'
# (hillock_bulletin). Every sign text is read exactly by OCR, with no stray text.
HELDOUT10_VIDEOS: tuple[Video, ...] = (
    Video(
        "piazza_roundup",
        Footage("vtest", 68.0, loops=_looped(68.0, 165.0), width=640),
        165.0,
        VTEST_SCENE,
        (
            _line("replace", 3.0, new="coffee machine", old="vending machine", venue="student lounge"),
            _line("deadline", 24.0, contest="photo competition", weekday="Thursday"),
            _line("rainplan", 45.0, occasion="school picnic", indoor="assembly hall"),
            _line("placed", 66.0, winner="Natalie", race="sack race", runner="Jonathan"),
            _line("bring", 87.0, thing="a packed lunch", outing="nature walk"),
            _line("hours", 108.0, facility="dance studio", open_hour=10, close_hour=7),
            _line("programme", 129.0, occasion="careers fair", first="a welcome talk", second="a tour of the labs"),
            _line("closing", 150.0, shop="chemist", hour=3),
        ),
        (
            Sign("NEW COFFEE MACHINE", 0.0, 26.0),
            Sign("PHOTO COMPETITION", 26.0, 44.0),
            Sign("CLOSES THURSDAY", 28.0, 44.0, "top2"),
            Sign("PICNIC INDOORS IF WET", 40.0, 75.0, "bottom"),
            Sign("SACK RACE RESULTS", 44.0, 110.0),
            Sign("DANCE STUDIO", 110.0, 165.0),
            Sign("OPEN 10 TO 7", 110.0, 128.0, "top2"),
            Sign("LAB TOURS", 126.0, 165.0, "bottom"),
        ),
        vtest_counts_looped(68.0, 165.0),
        ("badger", "igloo"),
    ),
    Video(
        "hillock_bulletin",
        Footage("bigbuckbunny", 3.5, loops=32, width=640, fps=25),
        160.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("placed", 2.0, winner="Jessica", race="obstacle race", runner="Howard"),
            _line("hours", 24.0, facility="farm shop", open_hour=7, close_hour=5),
            _line("replace", 46.0, new="solar lamp", old="gas lamp", venue="high street"),
            _line("bring", 68.0, thing="a torch", outing="cave tour"),
            _line("deadline", 90.0, contest="scarecrow contest", weekday="Friday"),
            _line("rainplan", 111.0, occasion="garden party", indoor="church hall"),
            _line("programme", 133.0, occasion="harvest festival", first="a brass band", second="a dog show"),
        ),
        (
            Sign("OBSTACLE RACE", 0.0, 22.0),
            Sign("FARM SHOP", 22.0, 48.0),
            Sign("OPEN 7 TO 5", 24.0, 44.0, "top2"),
            Sign("BRING A TORCH", 40.0, 85.0, "bottom"),
            Sign("SOLAR LAMPS", 48.0, 70.0),
            Sign("SCARECROW CONTEST", 70.0, 113.0),
            Sign("GARDEN PARTY", 113.0, 160.0),
            Sign("CHURCH HALL IF WET", 113.0, 130.0, "top2"),
            Sign("HARVEST FESTIVAL", 131.0, 160.0, "bottom"),
        ),
        tuple(Count(t, 0, 0, "an animated rabbit, no people") for t in (12.0, 55.0, 100.0, 145.0)),
        ("peacock", "snorkel"),
    ),
    Video(
        "backseat_memo",
        Footage("carphone", 3.5, loops=13, width=352, fps=15),
        45.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("bring", 1.0, thing="your passport", outing="boat trip"),
            _line("deadline", 15.0, contest="poetry prize", weekday="Monday"),
            _line("replace", 29.0, new="card reader", old="cash box", venue="ticket hall"),
        ),
        (
            Sign("PASSPORTS PLEASE", 0.0, 14.0),
            Sign("POETRY PRIZE", 14.0, 30.0),
            Sign("CARD ONLY", 27.0, 45.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (7.0, 22.0, 38.0)),
        ("raccoon", "cactus"),
    ),
    Video(
        "courtyard_digest",
        Footage("vtest", 22.0),
        50.0,
        VTEST_SCENE,
        (
            _line("hours", 1.0, facility="bike workshop", open_hour=8, close_hour=6),
            _line("programme", 17.0, occasion="charity dinner", first="a short film", second="a speech by the mayor"),
            _line("rainplan", 33.0, occasion="book sale", indoor="school library"),
        ),
        (
            Sign("BIKE WORKSHOP", 0.0, 16.0),
            Sign("CHARITY DINNER AT 8", 16.0, 34.0),
            Sign("BOOK SALE", 30.0, 50.0, "bottom"),
        ),
        vtest_counts(22.0, 50.0),
        ("falcon", "pyramid"),
    ),
    Video(
        "pedal_news",
        Footage("bikes", 7.0, loops=6, fps=25),
        50.0,
        BIKES_SCENE,
        (
            _line("placed", 1.0, winner="Gareth", race="cycle race", runner="Megan"),
            _line("replace", 17.0, new="bike shelter", old="flower bed", venue="town square"),
            _line("bring", 33.0, thing="a rain jacket", outing="coast ride"),
        ),
        (
            Sign("RACE RESULTS", 0.0, 16.0),
            Sign("BIKE SHELTER", 16.0, 34.0),
            Sign("COAST RIDE SUNDAY", 30.0, 50.0, "bottom"),
        ),
        (),
        ("seahorse", "bulldozer"),
    ),
)
HELDOUT10_BY_NAME = {v.name: v for v in HELDOUT10_VIDEOS}


# ------------------------------------------------------------------ the eleventh held-out set (videos only)

# Five videos built after the tenth set, whose questions are written by hand from a plain facts sheet
# (heldout11_facts.md) by someone who never sees the code, like the eighth to the tenth: `python -m bench.qset
# heldout11` builds the videos only. Seven kinds of line no code was written for ('tally', 'speaker',
# 'meetsin', 'duration', 'freeentry', 'threesteps', 'collect') and four older kinds ('sale', 'menu',
# 'event', 'closing') with new values; names, slot values and sign texts no other set uses; other footage and
# other stretches of it (vtest looped from 48 s, Megamind from 5 s, tree from 8 s, carphone from 0.5 s,
# bigbuckbunny from 0.5 s), people counts where they are hand-checked (vtest, the car's one man, the rabbit's
# none; none for the restaurant scene, nor for the tree, where a hand reaches in near the end of each pass),
# and in the two long videos a second line under the top sign, bottom captions over the top signs and top
# signs that change while a line is said.
# As for the tenth set, lines were checked against what faster-whisper base writes for them in their video
# (ingests --only asr,ocr into /tmp/h11/check*.duckdb), and garbled words were replaced before the facts sheet
# was written. First ingest (all five): 'From now on' -> 'From Alan', 'From all on' in every 'meetsin' line (the
# kind now says 'From next week, the X meets in the Y'), 'Anyone who lost a X in the Y can collect it from the
# Z' -> 'And one who lost ... can correct it' in every 'collect' line (now 'If you lost a X in the Y, you can
# pick it up at the Z'), 'bird song' -> "bird's on", 'To borrow a laptop' -> 'Tomorrow laptop', 'security
# desk' -> 'security mask', 'Heavy wind is expected' -> 'Have we win the next pack?', 'leather wallet in the
# bowling green' -> "hammer while it's in the bowling ring", 'boat ride' -> 'moat ride', 'back room' -> 'mac
# room', 'leek' -> 'leak', 'barn dance starts' -> 'barn fans start', 'Pensioners' -> 'And Shunners',
# 'beekeeping' -> 'me keeping', 'debating club' -> 'DaBading Club' (now space travel, book a laptop, the main
# gate, a sale of picture frames in place of the wind ('weather'), a gold watch in the school hall, the trip to
# the island, the art room, broccoli, the karaoke night, Grandparents, keeping bees, the stamp club). Second
# (all five): 'Grandparents' -> 'and parents', 'music block' -> 'music clock' and 'eighteen lockers' ->
# 'rating lockers' (both read right the first time), 'picture frames' -> 'big-cher frames' (now the science
# lab, twenty lockers, winter coats, and limo_briefing's lines in another order); third (those three videos):
# 'Grandparents' -> 'Brand parent scat'; fourth (limo_briefing): none (now Teachers). Signs changed with them
# (SPACE TRAVEL TALK, COATS HALF PRICE, 20 LOCKERS, BROCCOLI SOUP TODAY, KARAOKE AT 8, STAMP CLUB). Left as
# they are, no answer word in them: 'then' -> 'and' in every 'threesteps' line (the order of the steps stays)
# and 'starts at eight' -> 'starts and 8' (leafy_pane_notes). Every sign text is read exactly by OCR, with no
# stray text, and no absent word is in any transcript or OCR row.
HELDOUT11_VIDEOS: tuple[Video, ...] = (
    Video(
        "quadrant_dispatch",
        Footage("vtest", 48.0, loops=_looped(48.0, 165.0), width=640),
        165.0,
        VTEST_SCENE,
        (
            _line("tally", 3.0, count_a=12, things_a="chairs", count_b=4, things_b="tables", place="quiet room"),
            _line("speaker", 24.0, speaker="Professor Lindsay", subject="space travel"),
            _line("meetsin", 45.0, group="chess club", place="old gym"),
            _line("duration", 66.0, journey="walk to the waterfall", minutes=40),
            _line("freeentry", 87.0, who="Children under five", venue="model railway"),
            _line(
                "threesteps",
                108.0,
                task="book a laptop",
                step_a="show your card",
                step_b="sign the form",
                step_c="take a charger",
            ),
            _line("collect", 129.0, item="silver bracelet", place="science lab", desk="main gate"),
            _line("sale", 150.0, goods="winter coats", hour=5),
        ),
        (
            Sign("QUIET ROOM", 0.0, 20.0),
            Sign("12 CHAIRS 4 TABLES", 2.0, 18.0, "top2"),
            Sign("SPACE TRAVEL TALK", 20.0, 47.0),
            Sign("CHESS CLUB", 47.0, 86.0),
            Sign("OLD GYM", 49.0, 70.0, "top2"),
            Sign("WATERFALL 40 MIN", 62.0, 96.0, "bottom"),
            Sign("MODEL RAILWAY", 86.0, 132.0),
            Sign("LAPTOP LOANS", 104.0, 140.0, "bottom"),
            Sign("COATS HALF PRICE", 132.0, 165.0),
        ),
        vtest_counts_looped(48.0, 165.0),
        ("anvil", "tortoise"),
    ),
    Video(
        "tablecloth_chatter",
        Footage("Megamind.avi", 5.0, loops=15, width=640, fps=12),
        155.0,
        DINNER_SCENE,
        (
            _line("speaker", 2.0, speaker="Mrs Fletcher", subject="growing tomatoes"),
            _line("collect", 22.0, item="gold watch", place="school hall", desk="ticket booth"),
            _line("tally", 42.0, count_a=20, things_a="lockers", count_b=2, things_b="showers", place="pavilion"),
            _line(
                "threesteps",
                62.0,
                task="book a table",
                step_a="choose a day",
                step_b="pick a time",
                step_c="leave your phone number",
            ),
            _line("freeentry", 82.0, who="Students with a card", venue="history museum"),
            _line("duration", 102.0, journey="trip to the island", minutes=25),
            _line("meetsin", 122.0, group="knitting circle", place="art room"),
            _line("menu", 142.0, soup="broccoli", hour=2),
        ),
        (
            Sign("GARDEN TALK", 0.0, 24.0),
            Sign("TICKET BOOTH", 24.0, 44.0),
            Sign("PAVILION", 44.0, 80.0),
            Sign("20 LOCKERS", 46.0, 66.0, "top2"),
            Sign("BOOK A TABLE", 58.0, 90.0, "bottom"),
            Sign("HISTORY MUSEUM", 80.0, 120.0),
            Sign("STUDENTS FREE", 84.0, 100.0, "top2"),
            Sign("KNITTING CIRCLE", 120.0, 155.0),
            Sign("BROCCOLI SOUP TODAY", 138.0, 155.0, "bottom"),
        ),
        (),
        ("harpoon", "scorpion"),
    ),
    Video(
        "leafy_pane_notes",
        Footage("tree.avi", 8.0, loops=3, width=640, fps=15),
        55.0,
        "A leafy tree seen through a window, the camera moving slightly; a hand reaches in near the end of each pass.",
        (
            _line("duration", 1.0, journey="climb to the summit", minutes=90),
            _line("tally", 19.0, count_a=7, things_a="benches", count_b=3, things_b="bins", place="herb garden"),
            _line("event", 37.0, event="karaoke night", hour=8, room="scout hut"),
        ),
        (
            Sign("SUMMIT CLIMB", 0.0, 18.0),
            Sign("HERB GARDEN", 18.0, 36.0),
            Sign("KARAOKE AT 8", 33.0, 55.0, "bottom"),
        ),
        (),
        ("quiver", "pagoda"),
    ),
    Video(
        "limo_briefing",
        Footage("carphone", 0.5, loops=12, width=352, fps=15),
        45.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("meetsin", 1.0, group="stamp club", place="attic"),
            _line("freeentry", 15.0, who="Teachers", venue="botanic garden"),
            _line("speaker", 29.0, speaker="Captain Hughes", subject="keeping bees"),
        ),
        (
            Sign("STAMP CLUB", 0.0, 14.0),
            Sign("BOTANIC GARDEN", 14.0, 30.0),
            Sign("BEEKEEPING TALK", 27.0, 45.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (8.0, 23.0, 40.0)),
        ("sphinx", "antelope"),
    ),
    Video(
        "warren_flash",
        Footage("bigbuckbunny", 0.5, loops=10, width=640, fps=25),
        50.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("collect", 1.0, item="straw hat", place="picnic field", desk="gate house"),
            _line(
                "threesteps",
                17.0,
                task="plant a seed",
                step_a="dig a small hole",
                step_b="drop the seed in",
                step_c="water it well",
            ),
            _line("closing", 33.0, shop="pet shop", hour=4),
        ),
        (
            Sign("STRAW HAT FOUND", 0.0, 16.0),
            Sign("SEED PLANTING", 16.0, 34.0),
            Sign("PET SHOP CLOSES AT 4", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 0, 0, "an animated rabbit, no people") for t in (9.0, 26.0, 44.0)),
        ("catapult", "mammoth"),
    ),
)
HELDOUT11_BY_NAME = {v.name: v for v in HELDOUT11_VIDEOS}


# ------------------------------------------------------------------ the twelfth held-out set (videos only)

# Five videos built after the eleventh set, whose questions are written by hand from a plain facts sheet
# (heldout12_facts.md) by someone who never sees the code, like the eighth to the eleventh: `python -m
# bench.qset heldout12` builds the videos only. Eight kinds of line no code was written for ('newdate',
# 'unless', 'faster', 'because', 'pack', 'careful', 'minage', 'capacity') and four older kinds ('delay',
# 'hire', 'shuttle', 'price') with new values; names, slot values and sign texts no other set uses; other
# stretches of the same footage (vtest looped from 52 s, Megamind from 7 s, tree from 9 s, carphone from
# 1.2 s, bigbuckbunny from 2.2 s), people counts where they are hand-checked (vtest, the car's one man, the
# rabbit's none; none for the restaurant scene, nor for the tree, where a hand reaches in near the end of each
# pass), and in the two long videos a second line under the top sign, bottom captions over the top signs and
# top signs that change while a line is said.
# As for the eleventh set, lines were checked against what faster-whisper base writes for them in their video
# (ingests --only asr,ocr into /tmp/h12/check*.duckdb), and garbled words were replaced before the facts sheet
# was written. First ingest (all five): 'will now take place' -> 'will outtake place' in every 'newdate' line
# (the kind now says 'The X will take place on Y instead of Z'), 'can hold up to' -> 'can fold up to' in every
# 'capacity' line (now 'The X has seats for N people'), 'roller rink' -> 'roller ring', 'night bus to Leeds'
# -> 'night must lead to', 'beach day' -> 'meach day', 'path near the back door' -> 'past near the mac door',
# 'quiz night' -> 'quiz-ite', 'boat house' -> 'motel house', 'games room' -> "game's room", 'shuttle bus to
# the ice cave' -> 'shuttle muster device game', 'Krakow' -> 'crack out' (now the bike park, the morning
# train to Sheffield, the seaside trip, the road near the sports field, the spelling bee, the lakeside, the
# ballroom, the ski lodge, Sydney). Second (all five): 'spelling bee' -> 'spelling B', 'lakeside' -> 'lake
# side' (now the pancake race, the beach hut); third (banquet_asides): every key word right. Signs changed
# with them (BIKE PARK, MORNING TRAIN LATE, SEASIDE TRIP, ICY ROAD, BALLROOM, SKI LODGE BUS, SYDNEY 44 DOLLARS).
# Left as they are, no answer word in them: 'shuttle bus to the' -> 'shuttle muster the' (foliage_glass),
# 'Please take care: the' -> 'Please take care of that' (meadow_hollow), 'instead of' -> 'instead on'
# (banquet_asides). Every sign text is read exactly by OCR, with no stray text, and no absent word is in any
# transcript or OCR row.
HELDOUT12_VIDEOS: tuple[Video, ...] = (
    Video(
        "atrium_wire",
        Footage("vtest", 52.0, loops=_looped(52.0, 165.0), width=640),
        165.0,
        VTEST_SCENE,
        (
            _line("newdate", 3.0, occasion="school concert", day="Wednesday", old_day="Tuesday"),
            _line("unless", 24.0, gear="a helmet", area="bike park", exception="they are only watching"),
            _line("faster", 45.0, option_a="express train", option_b="local bus"),
            _line("because", 66.0, cause="strong winds", occasion="kite show", hour=3),
            _line(
                "pack",
                87.0,
                outing="camping trip",
                item_a="a sleeping bag",
                item_b="warm socks",
                item_c="a water bottle",
            ),
            _line("careful", 108.0, surface="floor", place="fish tank", state="wet"),
            _line("minage", 129.0, age=16, activity="drive the go karts"),
            _line("delay", 150.0, vehicle="morning train", city="Sheffield", minutes=15),
        ),
        (
            Sign("CONCERT ON WEDNESDAY", 0.0, 20.0),
            Sign("NOT TUESDAY", 2.0, 18.0, "top2"),
            Sign("BIKE PARK", 20.0, 47.0),
            Sign("EXPRESS TRAIN", 47.0, 86.0),
            Sign("BUS IS CHEAPER", 49.0, 70.0, "top2"),
            Sign("KITE SHOW", 62.0, 96.0, "bottom"),
            Sign("CAMPING TRIP", 86.0, 132.0),
            Sign("FLOOR IS WET", 104.0, 140.0, "bottom"),
            Sign("MORNING TRAIN LATE", 132.0, 165.0),
        ),
        vtest_counts_looped(52.0, 165.0),
        ("glacier", "sloth"),
    ),
    Video(
        "banquet_asides",
        Footage("Megamind.avi", 7.0, loops=15, width=640, fps=12),
        155.0,
        DINNER_SCENE,
        (
            _line("capacity", 2.0, room="dining room", count=60),
            _line("pack", 22.0, outing="seaside trip", item_a="sun cream", item_b="a towel", item_c="a spare shirt"),
            _line("newdate", 42.0, occasion="cake sale", day="Sunday", old_day="Saturday"),
            _line("careful", 62.0, surface="road", place="sports field", state="icy"),
            _line("faster", 82.0, option_a="taxi", option_b="city bus"),
            _line("because", 102.0, cause="power cut", occasion="pancake race", hour=9),
            _line("unless", 122.0, gear="an apron", area="kitchen", exception="they are only washing up"),
            _line("hire", 142.0, spot="beach hut", hire="canoes", price=12),
        ),
        (
            Sign("DINING ROOM", 0.0, 24.0),
            Sign("SEASIDE TRIP", 24.0, 44.0),
            Sign("CAKE SALE", 44.0, 80.0),
            Sign("NOW ON SUNDAY", 46.0, 66.0, "top2"),
            Sign("ICY ROAD", 58.0, 90.0, "bottom"),
            Sign("TAXI OR CITY BUS", 80.0, 120.0),
            Sign("CITY BUS CHEAPER", 84.0, 100.0, "top2"),
            Sign("KITCHEN RULES", 120.0, 155.0),
            Sign("CANOES 12 AN HOUR", 138.0, 155.0, "bottom"),
        ),
        (),
        ("yak", "dinosaur"),
    ),
    Video(
        "foliage_glass",
        Footage("tree.avi", 9.0, loops=3, width=640, fps=15),
        55.0,
        "A leafy tree seen through a window, the camera moving slightly; a hand reaches in near the end of each pass.",
        (
            _line("minage", 1.0, age=12, activity="ride the zip wire"),
            _line("capacity", 19.0, room="ballroom", count=90),
            _line("shuttle", 37.0, dest="ski lodge", minutes=15),
        ),
        (
            Sign("ZIP WIRE", 0.0, 18.0),
            Sign("BALLROOM", 18.0, 36.0),
            Sign("SKI LODGE BUS", 33.0, 55.0, "bottom"),
        ),
        (),
        ("cobra", "asteroid"),
    ),
    Video(
        "sedan_memo",
        Footage("carphone", 1.2, loops=14, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("because", 1.0, cause="thunder", occasion="golf day", hour=4),
            _line("faster", 17.0, option_a="plane", option_b="sleeper train"),
            _line("newdate", 33.0, occasion="book fair", day="Tuesday", old_day="Saturday"),
        ),
        (
            Sign("GOLF DAY", 0.0, 16.0),
            Sign("PLANE OR SLEEPER", 16.0, 32.0),
            Sign("BOOK FAIR TUESDAY", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (8.0, 25.0, 42.0)),
        ("meteor", "canyon"),
    ),
    Video(
        "meadow_hollow",
        Footage("bigbuckbunny", 2.2, loops=11, width=640, fps=25),
        55.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("careful", 1.0, surface="wooden bridge", place="water mill", state="slippery"),
            _line("unless", 19.0, gear="a hard hat", area="building site", exception="they stay in the office"),
            _line("price", 37.0, city="Sydney", price=44),
        ),
        (
            Sign("SLIPPERY BRIDGE", 0.0, 18.0),
            Sign("HARD HAT AREA", 18.0, 36.0),
            Sign("SYDNEY 44 DOLLARS", 33.0, 55.0, "bottom"),
        ),
        tuple(Count(t, 0, 0, "an animated rabbit, no people") for t in (9.0, 28.0, 46.0)),
        ("wigwam", "quokka"),
    ),
)
HELDOUT12_BY_NAME = {v.name: v for v in HELDOUT12_VIDEOS}


# ------------------------------------------------------------------ the thirteenth held-out set (videos only)

# Five videos built after the twelfth set, whose questions are written by hand from a plain facts sheet
# (heldout13_facts.md) by someone who never sees the code, like the eighth to the twelfth: `python -m
# bench.qset heldout13` builds the videos only. Eight kinds of line no code was written for ('between',
# 'each', 'reopen', 'thanks', 'lostwait', 'bestprize', 'switchoff', 'last') and four older kinds ('lost',
# 'meet', 'menu', 'closing') with new values; names, slot values and sign texts no other set uses; footage in
# another mix than the twelfth's (the two long videos on vtest looped from 42 s and on the bikes street
# montage looped from 1 s; the short ones on Megamind from 1 s, carphone from 2.8 s, bigbuckbunny from 1.8 s),
# people counts where they are hand-checked (vtest, the car's one man, the rabbit's none; none for the street
# montage nor the restaurant scene), and in the two long videos a second line under the top sign, bottom
# captions over the top signs and top signs that change while a line is said.
# As for the twelfth set, lines were checked against what faster-whisper base writes for them in their video
# (ingests --only asr,ocr into /tmp/h13/check*.duckdb), and garbled words were replaced before the facts sheet
# was written. First ingest (all five): 'Mister Patel' -> 'Mr Patel' (now said as written), 'flag pole' ->
# 'flagpole' (now one word), 'scarecrow' -> 'carcass', 'boat' -> 'vote', 'drinks stall' -> 'drink stall',
# 'cricket nets' -> 'cricket net', 'Zara' -> 'Mara', 'best sandcastle goes to Leo' -> 'best and castle don't
# allow', 'museum steps' -> "museum's epic", 'diner' -> 'liner', 'mints' -> 'minutes', 'parsnip' -> 'parsed',
# 'leisure centre' -> 'leisure center' (now the costume, the ice cream van by the skate ramp, Kevin, the
# photograph and Emily, the war memorial, the visitor's leaflets, potato, the mini golf). Second (the four
# changed): 'minibus' -> 'mini-must', 'painting the fence' -> 'painting the fans' (now the steam train,
# washing the dishes); third (spoke_bulletins): 'three pencils' -> 'free pencils' and 'photograph' ->
# 'photo-graph', both read right before (now six pencils, the drawing); fourth (spoke_bulletins): every key
# word right. Signs changed with them (FLAGPOLE, BEST COSTUME, LAST STEAM TRAIN 10 PM, ICE CREAM VAN, NEAR
# SKATE RAMP, 6 PENCILS EACH, BEST DRAWING, WAR MEMORIAL AT 6, 5 LEAFLETS EACH, POTATO SOUP, MINI GOLF).
# Left as it is, no answer word in it: "seven o'clock tonight" -> "7 o'clock to hide" (backseat_digest).
# Every sign text is read exactly by OCR, with no stray text, and no absent word is in any transcript or OCR
# row.
HELDOUT13_VIDEOS: tuple[Video, ...] = (
    Video(
        "forum_tidings",
        Footage("vtest", 42.0, loops=_looped(42.0, 165.0), width=640),
        165.0,
        VTEST_SCENE,
        (
            _line("between", 4.0, thing="first aid tent", place_a="snack bar", place_b="main stage"),
            _line("each", 25.0, who="guest", count=2, things="towels"),
            _line("reopen", 46.0, place="bouncy castle", month="March", work="repairs"),
            _line("thanks", 67.0, name="Mr Patel", deed="fixing the lights"),
            _line("lostwait", 88.0, landmark="flagpole", helper="steward"),
            _line("bestprize", 109.0, entry="costume", name="Olivia", group="blue team"),
            _line("switchoff", 130.0, occasion="carol service"),
            _line("lost", 150.0, color="lilac", item="cardigan", spot="coat room"),
        ),
        (
            Sign("FIRST AID TENT", 0.0, 20.0),
            Sign("NEAR MAIN STAGE", 2.0, 18.0, "top2"),
            Sign("TOWELS 2 EACH", 20.0, 48.0),
            Sign("BOUNCY CASTLE", 48.0, 90.0),
            Sign("OPEN IN MARCH", 50.0, 70.0, "top2"),
            Sign("THANK YOU MR PATEL", 64.0, 96.0, "bottom"),
            Sign("FLAGPOLE", 90.0, 132.0),
            Sign("BEST COSTUME", 106.0, 140.0, "bottom"),
            Sign("PHONES OFF", 132.0, 165.0),
        ),
        vtest_counts_looped(42.0, 165.0),
        ("kayak", "vulture"),
    ),
    Video(
        "spoke_bulletins",
        Footage("bikes", 1.0, loops=17, fps=25),
        155.0,
        BIKES_SCENE,
        (
            _line("switchoff", 2.0, occasion="fireworks display"),
            _line("last", 22.0, vehicle="steam train", dest="fishing village", hour=10),
            _line("between", 42.0, thing="ice cream van", place_a="hockey pitch", place_b="skate ramp"),
            _line("each", 62.0, who="pupil", count=6, things="pencils"),
            _line("reopen", 82.0, place="paddling pool", month="June", work="cleaning"),
            _line("thanks", 102.0, name="Kevin", deed="washing the dishes"),
            _line("bestprize", 122.0, entry="drawing", name="Emily", group="red team"),
            _line("meet", 142.0, name="Grace", landmark="war memorial", hour=6),
        ),
        (
            Sign("FIREWORKS", 0.0, 24.0),
            Sign("LAST STEAM TRAIN 10 PM", 24.0, 44.0),
            Sign("ICE CREAM VAN", 44.0, 80.0),
            Sign("NEAR SKATE RAMP", 46.0, 66.0, "top2"),
            Sign("6 PENCILS EACH", 58.0, 90.0, "bottom"),
            Sign("PADDLING POOL", 80.0, 120.0),
            Sign("OPEN IN JUNE", 84.0, 100.0, "top2"),
            Sign("BEST DRAWING", 120.0, 155.0),
            Sign("WAR MEMORIAL AT 6", 138.0, 155.0, "bottom"),
        ),
        (),
        ("sombrero", "jackal"),
    ),
    Video(
        "supper_relay",
        Footage("Megamind.avi", 1.0, loops=6, width=640, fps=12),
        55.0,
        DINNER_SCENE,
        (
            _line("each", 1.0, who="visitor", count=5, things="leaflets"),
            _line("lostwait", 19.0, landmark="big clock", helper="guide"),
            _line("menu", 37.0, soup="potato", hour=3),
        ),
        (
            Sign("5 LEAFLETS EACH", 0.0, 18.0),
            Sign("BIG CLOCK", 18.0, 36.0),
            Sign("POTATO SOUP", 33.0, 55.0, "bottom"),
        ),
        (),
        ("moose", "chimney"),
    ),
    Video(
        "backseat_digest",
        Footage("carphone", 2.8, loops=14, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("last", 1.0, vehicle="cable car", dest="hilltop cafe", hour=7),
            _line("reopen", 17.0, place="mini golf", month="October", work="flood"),
            _line("thanks", 33.0, name="Omar", deed="mending the gate"),
        ),
        (
            Sign("CABLE CAR", 0.0, 16.0),
            Sign("MINI GOLF", 16.0, 32.0),
            Sign("THANK YOU OMAR", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (8.0, 25.0, 42.0)),
        ("blimp", "cheetah"),
    ),
    Video(
        "burrow_gazette",
        Footage("bigbuckbunny", 1.8, loops=12, width=640, fps=25),
        55.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("bestprize", 1.0, entry="snowman", name="Ruby", group="green team"),
            _line("switchoff", 19.0, occasion="slide show"),
            _line("closing", 37.0, shop="sweet shop", hour=5),
        ),
        (
            Sign("BEST SNOWMAN", 0.0, 18.0),
            Sign("SLIDE SHOW", 18.0, 36.0),
            Sign("SWEET SHOP SHUT AT 5", 33.0, 55.0, "bottom"),
        ),
        tuple(Count(t, 0, 0, "an animated rabbit, no people") for t in (9.0, 28.0, 46.0)),
        ("lasso", "easel"),
    ),
)
HELDOUT13_BY_NAME = {v.name: v for v in HELDOUT13_VIDEOS}


# ------------------------------------------------------------------ the fourteenth held-out set (videos only)

# Five videos built after the thirteenth set, whose questions are written by hand from a plain facts sheet
# (heldout14_facts.md) by someone who never sees the code, like the eighth to the thirteenth: `python -m
# bench.qset heldout14` builds the videos only. Eight kinds of line no code was written for ('askabout',
# 'soldout', 'leash', 'helpers', 'record', 'carpark', 'birthday', 'vote') and three older kinds ('rainplan',
# 'delay', 'hire') with new values; names, slot values and sign texts no other set uses; footage in another
# mix than the thirteenth's (the long videos on vtest looped from 38 s and on bigbuckbunny looped from 2.4 s;
# the short ones on tree.avi from 8.5 s, carphone from 1.5 s and Megamind from 2.5 s), people counts where
# they are hand-checked (vtest, the rabbit's none, the car's one man; none for the tree nor the restaurant
# scene), and in the two long videos second lines under a top sign, bottom captions over the top signs and
# top signs that change while a line is said.
# As for the thirteenth set, lines were checked against what faster-whisper base writes for them in their
# video (ingests --only asr,ocr into /tmp/h14/check*.duckdb), and garbled words were replaced before the facts
# sheet was written. First ingest (all five): 'Hannah' -> 'hand', 'on a lead' -> 'on leaving' / 'on leading'
# (three videos: the kind now says 'on a leash'), 'turns nine' -> 'turns I in', 'ferry to Oslo' -> 'Fairy
# Toslo', 'lost tickets' -> 'last tickets', 'Hugo finished the pancake race' -> "You don't finish the pancake
# racing" (now Julia, eleven, the coach to York, parking permits, Oscar's relay). Second (four changed):
# 'north car park' -> 'Northcar park', 'paint the sheds' -> 'paint the Shadon', 'wheelbarrow race in' ->
# 'wheelbarrow racing', 'box office' -> 'mock office' (now the lower car park, clean the windows, the obstacle
# course, reception). Third (all five): 'bike parking' -> 'Mike Parking'; fourth and fifth (plaza_notices):
# 'bus times ... Julia ... welcome tent' -> 'most times ... Julian ... welcome end', then 'Emma' -> 'him' (the
# first line of that video, said at 4 s, lost a word in every ingest; now the school trip, Robert, the welcome
# desk); sixth (plaza_notices): every key word right. A sign that an edit named was changed with it, and the
# set's footage was left as it was. Every sign text is read exactly by OCR, with no stray text, and no absent
# word is in any transcript or OCR row.
HELDOUT14_VIDEOS: tuple[Video, ...] = (
    Video(
        "plaza_notices",
        Footage("vtest", 38.0, loops=_looped(38.0, 165.0), width=640),
        165.0,
        VTEST_SCENE,
        (
            _line("askabout", 4.0, topic="school trip", name="Robert", desk="welcome desk"),
            _line("soldout", 25.0, show="puppet show", other="magic show"),
            _line("leash", 46.0, area="maze"),
            _line("helpers", 67.0, count=4, task="stack the chairs", weekday="Sunday"),
            _line("record", 88.0, name="Felix", race="fun run", minutes=19),
            _line("carpark", 109.0, lot="lower", landmark="sports hall"),
            _line("vote", 130.0, thing="pie", desk="cake table", hour=4),
            _line("rainplan", 150.0, occasion="picnic", indoor="school gym"),
        ),
        (
            Sign("ASK ROBERT", 0.0, 20.0),
            Sign("WELCOME DESK", 2.0, 18.0, "top2"),
            Sign("PUPPET SHOW SOLD OUT", 20.0, 46.0),
            Sign("DOGS ON A LEASH", 46.0, 90.0),
            Sign("MAZE", 48.0, 66.0, "top2"),
            Sign("HELPERS NEEDED", 62.0, 94.0, "bottom"),
            Sign("FUN RUN RECORD", 90.0, 132.0),
            Sign("LOWER CAR PARK FULL", 105.0, 138.0, "bottom"),
            Sign("VOTE FOR BEST PIE", 132.0, 165.0),
        ),
        vtest_counts_looped(38.0, 165.0),
        ("walrus", "trombone"),
    ),
    Video(
        "warren_circular",
        Footage("bigbuckbunny", 2.4, loops=34, width=640, fps=25),
        150.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("birthday", 2.0, name="Nora", age=11),
            _line("helpers", 21.0, count=6, task="clean the windows", weekday="Thursday"),
            _line("askabout", 40.0, topic="donkey rides", name="Martin", desk="green gate"),
            _line("record", 59.0, name="Ivy", race="obstacle course", minutes=2),
            _line("leash", 78.0, area="orchard"),
            _line("soldout", 97.0, show="hay ride", other="tractor tour"),
            _line("carpark", 116.0, lot="south", landmark="village church"),
            _line("vote", 135.0, thing="jam", desk="honey stall", hour=3),
        ),
        (
            Sign("HAPPY BIRTHDAY NORA", 0.0, 20.0),
            Sign("HELPERS THURSDAY", 20.0, 38.0),
            Sign("CLEAN THE WINDOWS", 22.0, 36.0, "top2"),
            Sign("DONKEY RIDES", 38.0, 60.0),
            Sign("ASK MARTIN", 40.0, 58.0, "bottom"),
            Sign("OBSTACLE COURSE RECORD", 60.0, 80.0),
            Sign("ORCHARD", 80.0, 114.0),
            Sign("LEASHES ON", 82.0, 100.0, "top2"),
            Sign("HAY RIDE SOLD OUT", 95.0, 125.0, "bottom"),
            Sign("SOUTH CAR PARK", 114.0, 150.0),
            Sign("BEST JAM VOTE", 133.0, 150.0, "bottom"),
        ),
        tuple(Count(t, 0, 0, "an animated rabbit, no people") for t in (10.0, 50.0, 95.0, 140.0)),
        ("zeppelin", "parsnips"),
    ),
    Video(
        "canopy_minutes",
        Footage("tree.avi", 8.5, loops=3, width=640, fps=15),
        55.0,
        TREE_SCENE,
        (
            _line("birthday", 1.0, name="Leon", age=7),
            _line("carpark", 19.0, lot="east", landmark="bus shelter"),
            _line("delay", 37.0, vehicle="coach", city="York", minutes=25),
        ),
        (
            Sign("HAPPY BIRTHDAY LEON", 0.0, 18.0),
            Sign("EAST CAR PARK FULL", 18.0, 36.0),
            Sign("YORK COACH LATE", 33.0, 55.0, "bottom"),
        ),
        (),
        ("tuba", "pelican"),
    ),
    Video(
        "cabin_roundup",
        Footage("carphone", 1.5, loops=14, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("soldout", 1.0, show="late film", other="early film"),
            _line("vote", 17.0, thing="poem", desk="front table", hour=8),
            _line("hire", 33.0, spot="beach hut", hire="deck chairs", price=4),
        ),
        (
            Sign("LATE FILM SOLD OUT", 0.0, 16.0),
            Sign("POEM VOTE", 16.0, 32.0),
            Sign("DECK CHAIRS 4 DOLLARS", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (7.0, 24.0, 41.0)),
        ("lobster", "bagpipe"),
    ),
    Video(
        "table_dispatch",
        Footage("Megamind.avi", 2.5, loops=6, width=640, fps=12),
        55.0,
        DINNER_SCENE,
        (
            _line("leash", 1.0, area="picnic lawn"),
            _line("askabout", 19.0, topic="parking permits", name="Rosa", desk="reception"),
            _line("record", 37.0, name="Oscar", race="relay", minutes=4),
        ),
        (
            Sign("PICNIC LAWN", 0.0, 18.0),
            Sign("ASK ROSA", 18.0, 36.0),
            Sign("RELAY RECORD", 33.0, 55.0, "bottom"),
        ),
        (),
        ("volcano", "cactus"),
    ),
)
HELDOUT14_BY_NAME = {v.name: v for v in HELDOUT14_VIDEOS}


# ------------------------------------------------------------------ the fifteenth held-out set (videos only)

# Five videos built after the fourteenth set had been asked once, whose questions are written by hand from a
# plain facts sheet (heldout15_facts.md) by someone who never sees the code, like the eighth to the fourteenth:
# `python -m bench.qset heldout15` builds the videos only. Eight kinds of line no code was written for
# ('refund', 'shortcut', 'fine', 'every', 'looking', 'quiet', 'openlate', 'staffonly') and three older kinds
# ('meet', 'capacity', 'price') with new values; names, slot values and sign texts no other set uses; footage
# in another mix than the fourteenth's (the long videos on vtest looped from 28 s and on Megamind looped from
# 5.5 s; the short ones on carphone from 2.2 s, bigbuckbunny from 3.2 s and tree.avi from 3.5 s), people counts
# where they are hand-checked (vtest, the car's one man, the rabbit's none), and in the two long videos second
# lines under a top sign, bottom captions over the top signs and top signs that change while a line is said.
# Lines were checked against what faster-whisper base writes for them (ingests --only asr,ocr into
# /tmp/h15/check*.duckdb) and garbled words replaced before the facts sheet was written. First ingest: 'costs a
# fine of thirty dollars' -> 'costs of $530' in all three videos (the kind now says 'will be fined'), 'Leaving a
# bike' -> 'Leaving a mic', 'Anyone' -> 'And one' (now 'Everyone'), 'boating lake' -> 'moding lake', 'flower
# stall' -> 'flowers tall', 'chess final' -> 'chest final', 'bandstand' -> 'mend stand', 'tea tent has seats'
# -> 'T10 deceits', 'cricket ground' -> 'cricket round', 'her aunt' -> 'the rent', 'back stairs' -> 'Mac stairs',
# 'piano exam' -> 'piano and man', 'lecture theatre' -> 'theater' (its sign was read '8O SEATS'). Second: 'village
# hall' -> 'village holds', 'old tunnel' -> 'old tunnels', 'her uncle near the ice cream van' -> 'the Runkle near
# the ice cream fan', 'boat trip' -> 'mode trip', and a sign too wide for the frame was read cut. Third: 'high
# street' -> 'highest street', 'bus tour' -> 'most or'. Fourth: every key word right; numbers come as digits
# ('$30', '9 o'clock'), which the facts sheet allows. Every sign text is read exactly by OCR with no stray text.
HELDOUT15_VIDEOS: tuple[Video, ...] = (
    Video(
        "quay_bulletin",
        Footage("vtest", 28.0, loops=_looped(28.0, 160.0), width=640),
        160.0,
        VTEST_SCENE,
        (
            _line("refund", 4.0, event="kite festival", desk="ticket booth"),
            _line("shortcut", 24.0, place="sailing club", path="rose garden"),
            _line("fine", 44.0, area="footbridge", price=30),
            _line("every", 64.0, vehicle="river boat", dest="old mill", minutes=20),
            _line("looking", 84.0, name="Chloe", relative="grandfather", landmark="bakery"),
            _line("quiet", 104.0, room="reading room", activity="quiz final"),
            _line("openlate", 124.0, weekday="Friday", place="art gallery", hour=9),
            _line("meet", 144.0, name="Simon", landmark="windmill", hour=6),
        ),
        (
            Sign("KITE FESTIVAL REFUNDS", 0.0, 22.0),
            Sign("MONEY BACK AT BOOTH", 3.0, 19.0, "top2"),
            Sign("SAILING CLUB THIS WAY", 22.0, 42.0),
            Sign("NO BIKES ON FOOTBRIDGE", 42.0, 80.0),
            Sign("30 DOLLAR FINE", 45.0, 62.0, "top2"),
            Sign("RIVER BOAT EVERY 20 MIN", 60.0, 90.0, "bottom"),
            Sign("CHLOE WAIT BY BAKERY", 80.0, 102.0),
            Sign("HUSH IN THE READING ROOM", 102.0, 126.0),
            Sign("QUIZ FINAL", 100.0, 135.0, "bottom"),
            Sign("GALLERY OPEN LATE", 126.0, 160.0),
            Sign("WINDMILL AT 6", 142.0, 160.0, "bottom"),
        ),
        vtest_counts_looped(28.0, 160.0),
        ("pistachio", "avalanche"),
    ),
    Video(
        "supper_digest",
        Footage("Megamind.avi", 5.5, loops=15, width=640, fps=12),
        150.0,
        DINNER_SCENE,
        (
            _line("staffonly", 3.0, door="side gate", occasion="fireworks"),
            _line("every", 22.0, vehicle="water taxi", dest="lighthouse", minutes=15),
            _line("quiet", 41.0, room="small hall", activity="spelling contest"),
            _line("refund", 60.0, event="comedy night", desk="front kiosk"),
            _line("openlate", 79.0, weekday="Saturday", place="ice rink", hour=10),
            _line("fine", 98.0, area="station steps", price=50),
            _line("capacity", 117.0, room="chapel", count=40),
            _line("shortcut", 136.0, place="rugby club", path="main square"),
        ),
        (
            Sign("SIDE GATE STAFF ONLY", 0.0, 20.0),
            Sign("WATER TAXI", 20.0, 40.0),
            Sign("EVERY 15 MINUTES", 22.0, 38.0, "top2"),
            Sign("SPELLING CONTEST", 40.0, 58.0),
            Sign("SILENCE IN SMALL HALL", 42.0, 56.0, "bottom"),
            Sign("COMEDY NIGHT REFUNDS", 58.0, 78.0),
            Sign("ICE RINK", 78.0, 100.0),
            Sign("OPEN TILL 10", 80.0, 96.0, "top2"),
            Sign("50 DOLLAR FINE", 96.0, 120.0, "bottom"),
            Sign("CHAPEL 40 SEATS", 100.0, 119.0),
            Sign("RUGBY CLUB", 119.0, 150.0),
            Sign("VIA MAIN SQUARE", 134.0, 150.0, "bottom"),
        ),
        (),
        ("turnip", "quokka"),
    ),
    Video(
        "limo_leaflet",
        Footage("carphone", 2.2, loops=14, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("looking", 1.0, name="Ruby", relative="sister", landmark="toy shop"),
            _line("staffonly", 17.0, door="service lift", occasion="fire drill"),
            _line("price", 33.0, city="Prague", price=60),
        ),
        (
            Sign("RUBY IS LOST", 0.0, 16.0),
            Sign("SERVICE LIFT STAFF ONLY", 16.0, 32.0),
            Sign("PRAGUE 60 DOLLARS", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (6.0, 21.0, 38.0)),
        ("snorkel", "bagel"),
    ),
    Video(
        "hillside_herald",
        Footage("bigbuckbunny", 3.2, loops=12, width=640, fps=25),
        55.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("quiet", 2.0, room="music room", activity="singing lesson"),
            _line("fine", 20.0, area="tennis court", price=20),
            _line("looking", 38.0, name="Grace", relative="brother", landmark="duck pond"),
        ),
        (
            Sign("SINGING LESSON", 0.0, 18.0),
            Sign("TENNIS COURT RULES", 18.0, 36.0),
            Sign("GRACE LOOKING FOR BROTHER", 35.0, 55.0, "bottom"),
        ),
        tuple(Count(t, 0, 0, "an animated rabbit, no people") for t in (9.0, 27.0, 46.0)),
        ("wombat", "trampoline"),
    ),
    Video(
        "window_ledger",
        Footage("tree.avi", 3.5, loops=3, width=640, fps=15),
        55.0,
        TREE_SCENE,
        (
            _line("shortcut", 1.0, place="skate park", path="church yard"),
            _line("capacity", 19.0, room="lecture hall", count=90),
            _line("refund", 37.0, event="garden party", desk="gift shop"),
        ),
        (
            Sign("SKATE PARK SHORTCUT", 0.0, 18.0),
            Sign("LECTURE HALL 90 SEATS", 18.0, 36.0),
            Sign("GARDEN PARTY REFUNDS", 33.0, 55.0, "bottom"),
        ),
        (),
        ("glacier", "accordionist"),
    ),
)
HELDOUT15_BY_NAME = {v.name: v for v in HELDOUT15_VIDEOS}


# ------------------------------------------------------------------ the sixteenth held-out set (videos only)

# Five videos built after the fifteenth set had been asked once, whose questions are written by hand from a
# plain facts sheet (heldout16_facts.md) by someone who never sees the code: `python -m bench.qset heldout16`
# builds the videos only. Eight kinds of line no code was written for ('greeting', 'queue', 'dress', 'broken',
# 'limit', 'signing', 'recipe', 'onsale') and three older kinds ('lost', 'delay', 'closed') with new values;
# names, slot values and sign texts no other set uses; footage in another mix than the fifteenth's (the long
# videos on vtest looped from 62 s and on tree.avi looped from 5.5 s; the short ones on bikes from 3.5 s,
# Megamind from 3.5 s and carphone from 0.8 s), people counts where they are hand-checked (vtest, the car's one
# man), and in the two long videos second lines under a top sign, bottom captions over the top signs and top
# signs that change while a line is said. Lines checked against faster-whisper base (ingests --only asr,ocr into
# /tmp/h16/check*.duckdb); first ingest: 'pancakes' -> 'pancake' (now porridge), 'The tram to Leeds' -> 'The
# lead', 'jazz night' -> 'jazz I'd', 'petting farm' -> 'padding farm'; second: 'The coach to Glasgow' -> 'The last
# door' (now the train to Cardiff); third: every key word right, every sign read exactly with no stray text.
HELDOUT16_VIDEOS: tuple[Video, ...] = (
    Video(
        "lamppost_weekly",
        Footage("vtest", 62.0, loops=_looped(62.0, 160.0), width=640),
        160.0,
        VTEST_SCENE,
        (
            _line("greeting", 4.0, event="harvest fair", town="Millbrook"),
            _line("queue", 24.0, attraction="ghost train", minutes=30),
            _line("dress", 44.0, clothing="old clothes", event="mud race", weekday="Sunday"),
            _line("broken", 64.0, machine="coffee machine", place="main door", other="staff room"),
            _line("limit", 84.0, count=4, thing="bell tower"),
            _line("signing", 104.0, name="Hugo", venue="book tent", hour=2),
            _line("recipe", 124.0, dish="fruit punch", ingredient_a="apples", ingredient_b="ginger"),
            _line("lost", 144.0, color="purple", item="scarf", spot="first aid tent"),
        ),
        (
            Sign("HARVEST FAIR", 0.0, 22.0),
            Sign("MILLBROOK", 3.0, 19.0, "top2"),
            Sign("GHOST TRAIN QUEUE", 22.0, 42.0),
            Sign("MUD RACE SUNDAY", 42.0, 80.0),
            Sign("OLD CLOTHES ONLY", 45.0, 62.0, "top2"),
            Sign("COFFEE MACHINE BROKEN", 60.0, 90.0, "bottom"),
            Sign("BELL TOWER 4 AT A TIME", 80.0, 102.0),
            Sign("BOOK SIGNING", 102.0, 126.0),
            Sign("HUGO AT 2", 100.0, 135.0, "bottom"),
            Sign("FRUIT PUNCH", 126.0, 160.0),
            Sign("PURPLE SCARF FOUND", 142.0, 160.0, "bottom"),
        ),
        vtest_counts_looped(62.0, 160.0),
        ("hedgehog", "cymbal"),
    ),
    Video(
        "sill_almanac",
        Footage("tree.avi", 5.5, loops=6, width=640, fps=15),
        150.0,
        TREE_SCENE,
        (
            _line("broken", 3.0, machine="ticket machine", place="car park", other="library"),
            _line("onsale", 22.0, event="pantomime", hour=10, desk="town hall"),
            _line("recipe", 41.0, dish="porridge", ingredient_a="bananas", ingredient_b="honey"),
            _line("greeting", 60.0, event="flower show", town="Ashford"),
            _line("limit", 79.0, count=6, thing="rope bridge"),
            _line("queue", 98.0, attraction="big wheel", minutes=45),
            _line("delay", 117.0, vehicle="train", city="Cardiff", minutes=35),
            _line("dress", 136.0, clothing="fancy dress", event="disco", weekday="Friday"),
        ),
        (
            Sign("TICKET MACHINE BROKEN", 0.0, 20.0),
            Sign("USE THE LIBRARY", 2.0, 18.0, "top2"),
            Sign("PANTOMIME TICKETS", 20.0, 40.0),
            Sign("ON SALE AT 10", 22.0, 38.0, "bottom"),
            Sign("PORRIDGE TODAY", 40.0, 58.0),
            Sign("FLOWER SHOW", 58.0, 78.0),
            Sign("WELCOME TO ASHFORD", 60.0, 76.0, "top2"),
            Sign("ROPE BRIDGE", 78.0, 99.0),
            Sign("6 AT A TIME", 80.0, 96.0, "bottom"),
            Sign("BIG WHEEL QUEUE", 99.0, 119.0),
            Sign("CARDIFF TRAIN LATE", 119.0, 150.0),
            Sign("DISCO ON FRIDAY", 134.0, 150.0, "bottom"),
        ),
        (),
        ("iceberg", "marzipan"),
    ),
    Video(
        "spokes_memo",
        Footage("bikes", 3.5, loops=6, fps=25),
        55.0,
        BIKES_SCENE,
        (
            _line("signing", 1.0, name="Poppy", venue="corner cafe", hour=3),
            _line("closed", 19.0, place="climbing wall", cause="the ropes are being checked"),
            _line("queue", 37.0, attraction="face painting", minutes=10),
        ),
        (
            Sign("MEET POPPY AT 3", 0.0, 18.0),
            Sign("CLIMBING WALL CLOSED", 18.0, 36.0),
            Sign("FACE PAINTING QUEUE", 33.0, 55.0, "bottom"),
        ),
        (),
        ("porcupine", "ukulele"),
    ),
    Video(
        "candle_bulletin",
        Footage("Megamind.avi", 3.5, loops=5, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("recipe", 1.0, dish="curry", ingredient_a="lentils", ingredient_b="spinach"),
            _line("onsale", 17.0, event="folk concert", hour=6, desk="bar"),
            _line("lost", 33.0, color="silver", item="watch", spot="cloakroom"),
        ),
        (
            Sign("CURRY OF THE DAY", 0.0, 16.0),
            Sign("FOLK CONCERT TICKETS", 16.0, 32.0),
            Sign("SILVER WATCH FOUND", 30.0, 50.0, "bottom"),
        ),
        (),
        ("tornado", "waffle"),
    ),
    Video(
        "rearview_chronicle",
        Footage("carphone", 0.8, loops=13, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("dress", 1.0, clothing="boots", event="hill walk", weekday="Tuesday"),
            _line("limit", 17.0, count=2, thing="diving board"),
            _line("closed", 33.0, place="city farm", cause="the goats are sick"),
        ),
        (
            Sign("BOOTS FOR HILL WALK", 0.0, 16.0),
            Sign("DIVING BOARD", 16.0, 32.0),
            Sign("CITY FARM SHUT", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (8.0, 25.0, 42.0)),
        ("mongoose", "harmonica"),
    ),
)
HELDOUT16_BY_NAME = {v.name: v for v in HELDOUT16_VIDEOS}


# ------------------------------------------------------------------ the seventeenth held-out set (videos only)

# Five videos built after the sixteenth set had been asked once, whose questions are written by hand from a
# plain facts sheet (heldout17_facts.md) by someone who never sees the code: `python -m bench.qset heldout17`
# builds the videos only. Eight kinds of line no code was written for ('allergy', 'countdown', 'sponsor',
# 'drill', 'busreplace', 'nophotos', 'score', 'water') and four older kinds ('queue', 'lost', 'closed',
# 'delay') with new values; names, slot values and sign texts no other set uses; footage in another mix than
# the sixteenth's (the long videos on vtest looped from 8 s and on bigbuckbunny looped from 2.6 s; the short
# ones on Megamind from 6.5 s, tree.avi from 2.5 s and carphone from 1.8 s), people counts where they are
# hand-checked (vtest, the car's one man, the rabbit's none), and in the two long videos second lines under a
# top sign, bottom captions over the top signs and top signs that change while a line is said. Lines checked
# against faster-whisper base (ingests --only asr,ocr into /tmp/h17/check*.duckdb); first ingest: 'walnut cake'
# -> 'wall nut cake', 'Hartley Bakery' -> 'Hartley-Makeri', 'netball final' -> 'net while final', 'bandstand' ->
# 'mend stand', 'Green Giants beat' -> 'green giant speed', 'back stairs' -> 'mac stairs', 'fish pie' -> 'fish
# by', 'Oxford and Banbury' -> 'hocks for, and manberry', 'boating lake' -> 'molding lake', 'pad thai contains
# peanuts' -> 'paddy contains the huts', 'The ferry to Dover' -> 'The fairy turnover'; second: 'information
# tent' -> 'information 10x', 'fish stew' -> 'fish too', 'Photos' -> "Fogo's" (said 3 s later it is heard
# right), 'The bus to Brighton' -> 'The mustard writer'; third: 'picnic area' -> 'big Nicaria'; fourth: every
# key word right, every sign read exactly with no stray text. After the questions were written, two signs that an
# earlier set shows were made new (FIRE DRILL -> FIRE DRILL AT 3, PONY RIDES -> PONY RIDES HERE) and two absent
# words an earlier set says were replaced (snowman -> toboggan, lighthouse -> submarine), in the questions too.
HELDOUT17_VIDEOS: tuple[Video, ...] = (
    Video(
        "gable_dispatch",
        Footage("vtest", 8.0, loops=_looped(8.0, 165.0), width=640),
        165.0,
        VTEST_SCENE,
        (
            _line("allergy", 3.0, dish="chocolate cake", allergen="nuts", desk="tea stall"),
            _line("countdown", 24.0, event="magic show", minutes=15, room="blue tent"),
            _line("sponsor", 45.0, event="fun run", company="the Riverside Hotel"),
            _line("drill", 66.0, hour=11, exit="side gate"),
            _line("busreplace", 87.0, town_a="Bradford", town_b="Halifax"),
            _line("nophotos", 108.0, room="art gallery", reason="the paintings are very old"),
            _line("score", 129.0, team_a="Red Foxes", team_b="Blue Owls", count=12, match="hockey final"),
            _line("water", 150.0, spot="main stage", landmark="duck pond"),
        ),
        (
            Sign("CHOCOLATE CAKE", 0.0, 22.0),
            Sign("CONTAINS NUTS", 3.0, 19.0, "top2"),
            Sign("MAGIC SHOW", 22.0, 44.0),
            Sign("FUN RUN", 44.0, 64.0),
            Sign("RIVERSIDE HOTEL", 46.0, 62.0, "bottom"),
            Sign("FIRE DRILL AT 11", 64.0, 86.0),
            Sign("NO TRAINS", 86.0, 110.0),
            Sign("ART GALLERY", 110.0, 128.0),
            Sign("NO PHOTOS", 112.0, 126.0, "top2"),
            Sign("HOCKEY FINAL", 128.0, 150.0),
            Sign("FREE WATER", 140.0, 165.0, "bottom"),
            Sign("DUCK POND", 150.0, 165.0),
        ),
        vtest_counts_looped(8.0, 165.0),
        ("walrus", "trombone"),
    ),
    Video(
        "warren_ledger",
        Footage("bigbuckbunny", 2.6, loops=34, width=640, fps=25),
        160.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("water", 4.0, spot="front gate", landmark="old barn"),
            _line("score", 24.0, team_a="Rangers", team_b="Tigers", count=10, match="rugby match"),
            _line("drill", 46.0, hour=3, exit="fire escape"),
            _line("allergy", 68.0, dish="apple crumble", allergen="milk", desk="kitchen hatch"),
            _line("countdown", 90.0, event="puppet show", minutes=20, room="village hall"),
            _line("nophotos", 114.0, room="chapel", reason="a wedding is taking place"),
            _line("queue", 133.0, attraction="pony rides", minutes=25),
        ),
        (
            Sign("WATER HERE", 0.0, 22.0),
            Sign("RUGBY RESULT", 22.0, 46.0),
            Sign("RANGERS WIN", 24.0, 40.0, "top2"),
            Sign("FIRE DRILL AT 3", 46.0, 68.0),
            Sign("USE FIRE ESCAPE", 44.0, 80.0, "bottom"),
            Sign("APPLE CRUMBLE", 68.0, 90.0),
            Sign("PUPPET SHOW SOON", 90.0, 112.0),
            Sign("WEDDING TODAY", 112.0, 135.0),
            Sign("NO PHOTOS", 114.0, 130.0, "top2"),
            Sign("PONY RIDES HERE", 135.0, 160.0),
            Sign("25 MINUTE WAIT", 136.0, 160.0, "bottom"),
        ),
        tuple(Count(t, 0, 0, "an animated rabbit, no people") for t in (12.0, 55.0, 100.0, 145.0)),
        ("cobra", "toboggan"),
    ),
    Video(
        "larder_notes",
        Footage("Megamind.avi", 6.5, loops=6, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("sponsor", 1.0, event="food festival", company="Green Valley Farm"),
            _line("lost", 17.0, color="brown", item="wallet", spot="coat rack"),
            _line("busreplace", 33.0, town_a="Bristol", town_b="Bath"),
        ),
        (
            Sign("FOOD FESTIVAL", 0.0, 16.0),
            Sign("BROWN WALLET FOUND", 16.0, 32.0),
            Sign("BUSES TO BATH", 30.0, 50.0, "bottom"),
        ),
        (),
        ("gorilla", "submarine"),
    ),
    Video(
        "glade_digest",
        Footage("tree.avi", 2.5, loops=3, width=640, fps=15),
        50.0,
        TREE_SCENE,
        (
            _line("closed", 1.0, place="paddling pool", cause="the water is too low"),
            _line("countdown", 17.0, event="quiz", minutes=5, room="reading room"),
            _line("water", 33.0, spot="ticket booth", landmark="car park"),
        ),
        (
            Sign("PADDLING POOL CLOSED", 0.0, 16.0),
            Sign("QUIZ IN 5 MINUTES", 16.0, 32.0),
            Sign("DRINKING WATER", 30.0, 50.0, "bottom"),
        ),
        (),
        ("flamingo", "saxophone"),
    ),
    Video(
        "dashboard_memo",
        Footage("carphone", 1.8, loops=14, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("score", 1.0, team_a="Lions", team_b="Eagles", count=3, match="cricket match"),
            _line("allergy", 17.0, dish="chicken salad", allergen="mustard", desk="front counter"),
            _line("delay", 33.0, vehicle="train", city="London", minutes=20),
        ),
        (
            Sign("LIONS WIN", 0.0, 16.0),
            Sign("CHICKEN SALAD", 16.0, 32.0),
            Sign("LONDON TRAIN LATE", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (8.0, 25.0, 42.0)),
        ("kangaroo", "volcano"),
    ),
)
HELDOUT17_BY_NAME = {v.name: v for v in HELDOUT17_VIDEOS}


# ------------------------------------------------------------------ the eighteenth held-out set (videos only)

# Five videos built after the seventeenth set had been asked once, whose questions are written by hand from a
# plain facts sheet (heldout18_facts.md) by someone who never sees the code: `python -m bench.qset heldout18`
# builds the videos only. Eight kinds of line no code was written for ('wifi', 'volunteer', 'parade',
# 'firstaid', 'shoes', 'tour', 'silence', 'refill'); names, slot values and sign texts no other set uses;
# footage in another mix than the seventeenth's (the long videos on vtest looped from 50 s and on tree.avi
# looped from 4.5 s; the short ones on bikes from 2 s, Megamind from 4.5 s and carphone from 1.2 s), people
# counts where they are hand-checked (vtest, the car's one man), and in the two long videos second lines under
# a top sign, bottom captions over the top signs and top signs that change while a line is said. Lines checked
# against faster-whisper base (ingests --only asr,ocr into /tmp/h18/check*.duckdb); first ingest: 'wifi password'
# -> 'wife I pass where' (turnstile_gazette's voice, at 3 s, 6 s, 87 s and with two rooms: that line became a
# 'closed' line), 'ice cream van' -> 'ice cream fan', 'butterfly' -> 'buggerfly', 'three volunteers' -> 'free
# volunteers', 'football ground' -> 'football round', 'tea tent' -> '10'; second: 'minute of silence' -> 'minute
# unsilence' and 'refilled' -> 'revealed' (each heard right 1 s later); last: every key word right (numbers as
# digits, 'centre' as 'center', 'tours of' as 'tours on'), every sign read exactly with no stray text.
HELDOUT18_VIDEOS: tuple[Video, ...] = (
    Video(
        "turnstile_gazette",
        Footage("vtest", 50.0, loops=_looped(50.0, 170.0), width=640),
        170.0,
        VTEST_SCENE,
        (
            _line("shoes", 3.0, room="prayer room"),
            _line("volunteer", 24.0, count=6, event="beach clean", name="Rosie"),
            _line("parade", 45.0, place_a="railway station", place_b="town square"),
            _line("firstaid", 66.0, landmark="bouncy castle"),
            _line("closed", 87.0, place="bowling green", cause="the grass is too wet"),
            _line("tour", 108.0, place="old mill", minutes=30, spot="visitor centre"),
            _line("silence", 129.0, hour=12, name="Captain Moore"),
            _line("refill", 150.0, desk="coffee cart", hour=4),
        ),
        (
            Sign("PRAYER ROOM", 0.0, 22.0),
            Sign("SHOES OFF PLEASE", 3.0, 19.0, "top2"),
            Sign("BEACH CLEAN", 22.0, 44.0),
            Sign("6 VOLUNTEERS NEEDED", 26.0, 42.0, "bottom"),
            Sign("PARADE TODAY", 44.0, 64.0),
            Sign("FIRST AID", 64.0, 86.0),
            Sign("BOWLING GREEN CLOSED", 86.0, 106.0),
            Sign("GRASS TOO WET", 88.0, 104.0, "top2"),
            Sign("OLD MILL TOURS", 106.0, 128.0),
            Sign("MINUTE OF SILENCE", 128.0, 150.0),
            Sign("COFFEE CART", 140.0, 170.0, "bottom"),
            Sign("FREE REFILLS", 150.0, 170.0),
        ),
        vtest_counts_looped(50.0, 170.0),
        ("pangolin", "theremin"),
    ),
    Video(
        "bough_register",
        Footage("tree.avi", 4.5, loops=7, width=640, fps=15),
        155.0,
        TREE_SCENE,
        (
            _line("refill", 3.0, desk="juice bar", hour=6),
            _line("silence", 22.0, hour=11, name="Doctor Evans"),
            _line("tour", 41.0, place="castle", minutes=20, spot="gift shop"),
            _line("shoes", 60.0, room="soft play area"),
            _line("parade", 79.0, place_a="church", place_b="river bank"),
            _line("volunteer", 98.0, count=4, event="cake stall", name="Harry"),
            _line("firstaid", 117.0, landmark="big tent"),
            _line("wifi", 136.0, room="cafe", word="rainbow"),
        ),
        (
            Sign("JUICE BAR", 0.0, 20.0),
            Sign("FREE REFILLS UNTIL 6", 2.0, 18.0, "bottom"),
            Sign("REMEMBERING DR EVANS", 20.0, 40.0),
            Sign("CASTLE TOURS", 40.0, 58.0),
            Sign("EVERY 20 MINUTES", 42.0, 56.0, "top2"),
            Sign("SOFT PLAY", 58.0, 78.0),
            Sign("PARADE ROUTE", 78.0, 99.0),
            Sign("CHURCH TO RIVER", 80.0, 96.0, "bottom"),
            Sign("CAKE STALL HELPERS", 99.0, 117.0),
            Sign("FIRST AID POST", 117.0, 136.0),
            Sign("CAFE WIFI", 136.0, 155.0),
            Sign("PASSWORD RAINBOW", 132.0, 155.0, "bottom"),
        ),
        (),
        ("axolotl", "gramophone"),
    ),
    Video(
        "spindle_notes",
        Footage("bikes", 2.0, loops=6, fps=25),
        50.0,
        BIKES_SCENE,
        (
            _line("shoes", 1.0, room="dance studio"),
            _line("tour", 17.0, place="clock tower", minutes=15, spot="main gate"),
            _line("wifi", 33.0, room="waiting room", word="pineapple"),
        ),
        (
            Sign("STUDIO SHOES OFF", 0.0, 16.0),
            Sign("CLOCK TOWER TOURS", 16.0, 32.0),
            Sign("WIFI PINEAPPLE", 30.0, 50.0, "bottom"),
        ),
        (),
        ("manatee", "sextant"),
    ),
    Video(
        "tablecloth_minutes",
        Footage("Megamind.avi", 4.5, loops=5, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("volunteer", 1.0, count=5, event="book sale", name="Oliver"),
            _line("firstaid", 17.0, landmark="bakery"),
            _line("silence", 34.0, hour=3, name="Mr Lewis"),
        ),
        (
            Sign("SECOND HAND BOOKS", 0.0, 16.0),
            Sign("FIRST AID BEHIND BAKERY", 16.0, 32.0),
            Sign("SILENCE AT 3", 30.0, 50.0, "bottom"),
        ),
        (),
        ("wolverine", "abacus"),
    ),
    Video(
        "limo_log",
        Footage("carphone", 1.2, loops=14, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("parade", 1.0, place_a="school", place_b="sports field"),
            _line("refill", 18.0, desk="snack bar", hour=5),
            _line("volunteer", 33.0, count=10, event="fun day", name="Amy"),
        ),
        (
            Sign("PARADE FROM SCHOOL", 0.0, 16.0),
            Sign("SNACK BAR REFILLS", 16.0, 32.0),
            Sign("10 HELPERS NEEDED", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (8.0, 25.0, 42.0)),
        ("tapir", "kaleidoscope"),
    ),
)
HELDOUT18_BY_NAME = {v.name: v for v in HELDOUT18_VIDEOS}


# ------------------------------------------------------------------ the nineteenth held-out set (videos only)

# Five videos built after the eighteenth set had been asked once, whose questions are written by hand from a
# plain facts sheet (heldout19_facts.md) by someone who never sees the code: `python -m bench.qset heldout19`
# builds the videos only. Eight kinds of line no code was written for ('charge', 'umbrella', 'heat',
# 'quizmaster', 'photo', 'entry', 'maps', 'alone'); names, slot values and sign texts no other set uses;
# footage in another mix than the eighteenth's (the long videos on vtest looped from 32 s and on the rabbit
# cartoon looped from 1.2 s; the short ones on tree.avi from 6.5 s, bikes from 4.5 s and Megamind from 1.5 s),
# people counts where they are hand-checked (vtest), and in the two long videos second lines under a top sign,
# bottom captions over the top signs and top signs that change while a line is said. Lines checked against
# faster-whisper base (ingests --only asr,ocr into /tmp/h19/check*.duckdb); first ingest: 'boat trips' -> 'vote,
# trip' and 'both trips', 'nine dollars' -> '$1', 'bouncy slide' -> 'mountain seaslide', 'castle grounds' ->
# 'castle round', 'Priya' -> 'Prey', 'children under five ... sand pit' -> 'kill 1005 ... send bit'; second:
# 'cruise' -> 'crew', 'adults' -> 'a doll's', 'children under eight' -> 'kill the under-rate', 'Helen' -> 'Hell';
# third: 'entry to' -> 'and treat', 'old fort' -> 'old fart', 'Fiona' -> 'Filmed', 'play tent' -> 'plate and';
# last: every key word right ('quiz master' as 'quizmaster', 'maps of' as 'maps on', 'castle gardens' as 'castle
# garden', numbers as digits), every sign read exactly with no stray text.
HELDOUT19_VIDEOS: tuple[Video, ...] = (
    Video(
        "fountain_courier",
        Footage("vtest", 32.0, loops=_looped(32.0, 165.0), width=640),
        165.0,
        VTEST_SCENE,
        (
            _line("charge", 3.0, desk="library desk"),
            _line("umbrella", 24.0, desk="hotel reception", spot="bus shelter"),
            _line("heat", 45.0, count=31, area="playground"),
            _line("quizmaster", 66.0, name="Gemma", subject="famous rivers"),
            _line("photo", 87.0, place="front steps", hour=2),
            _line("entry", 108.0, place="lighthouse", price=15),
            _line("maps", 129.0, place="nature reserve", spot="car park gate"),
            _line("alone", 150.0, age=8, attraction="treetop walk"),
        ),
        (
            Sign("PHONE CHARGING", 0.0, 22.0),
            Sign("BRING A CABLE", 3.0, 19.0, "top2"),
            Sign("UMBRELLAS TO BORROW", 22.0, 44.0),
            Sign("HEAT WARNING", 44.0, 64.0),
            Sign("31 DEGREES TODAY", 46.0, 62.0, "bottom"),
            Sign("QUIZ NIGHT", 64.0, 86.0),
            Sign("GROUP PHOTO AT 2", 86.0, 106.0),
            Sign("LIGHTHOUSE ENTRY", 106.0, 128.0),
            Sign("15 DOLLARS BABIES FREE", 108.0, 124.0, "top2"),
            Sign("FREE MAPS", 128.0, 150.0),
            Sign("NOBODY UNDER 8 ALONE", 140.0, 165.0, "bottom"),
            Sign("TREETOP WALK", 150.0, 165.0),
        ),
        vtest_counts_looped(32.0, 165.0),
        ("walrus", "harpsichord"),
    ),
    Video(
        "meadow_telegraph",
        Footage("bigbuckbunny", 1.2, loops=31, width=640, fps=25),
        160.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("quizmaster", 3.0, name="Tobias", subject="space rockets"),
            _line("alone", 24.0, age=6, attraction="pirate ship"),
            _line("entry", 45.0, place="old prison", price=12),
            _line("charge", 66.0, desk="ticket booth"),
            _line("heat", 87.0, count=28, area="picnic field"),
            _line("maps", 108.0, place="forest trail", spot="visitor hut"),
            _line("umbrella", 129.0, desk="front office", spot="garden gate"),
            _line("photo", 150.0, place="village green", hour=5),
        ),
        (
            Sign("QUIZ MASTER TOBIAS", 0.0, 20.0),
            Sign("SPACE ROCKETS ROUND", 2.0, 18.0, "bottom"),
            Sign("PIRATE SHIP", 20.0, 42.0),
            Sign("OLD PRISON ENTRY", 42.0, 62.0),
            Sign("12 DOLLARS", 44.0, 60.0, "top2"),
            Sign("CHARGING AT THE BOOTH", 62.0, 84.0),
            Sign("28 DEGREES", 84.0, 104.0),
            Sign("FOREST TRAIL MAPS", 104.0, 126.0),
            Sign("VISITOR HUT", 106.0, 122.0, "bottom"),
            Sign("BORROW AN UMBRELLA", 126.0, 146.0),
            Sign("PHOTO ON THE GREEN", 146.0, 160.0),
        ),
        (),
        ("porcupine", "telescope"),
    ),
    Video(
        "porch_gazette",
        Footage("tree.avi", 6.5, loops=3, width=640, fps=15),
        50.0,
        TREE_SCENE,
        (
            _line("photo", 1.0, place="garden terrace", hour=11),
            _line("heat", 17.0, count=25, area="tennis courts"),
            _line("maps", 33.0, place="castle gardens", spot="ticket hut"),
        ),
        (
            Sign("TERRACE PHOTO", 0.0, 16.0),
            Sign("HOT ON THE COURTS", 16.0, 32.0),
            Sign("CASTLE MAPS", 30.0, 50.0, "bottom"),
        ),
        (),
        ("iguana", "accordion"),
    ),
    Video(
        "kiosk_review",
        Footage("bikes", 4.5, loops=6, fps=25),
        50.0,
        BIKES_SCENE,
        (
            _line("umbrella", 1.0, desk="bike shop", spot="station entrance"),
            _line("alone", 17.0, age=10, attraction="zip line"),
            _line("quizmaster", 33.0, name="Robert", subject="old films"),
        ),
        (
            Sign("UMBRELLAS AT BIKE SHOP", 0.0, 16.0),
            Sign("ZIP LINE", 16.0, 32.0),
            Sign("QUIZ WITH ROBERT", 30.0, 50.0, "bottom"),
        ),
        (),
        ("narwhal", "metronome"),
    ),
    Video(
        "bistro_minutes",
        Footage("Megamind.avi", 1.5, loops=5, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("entry", 1.0, place="island", price=7),
            _line("charge", 17.0, desk="bar counter"),
            _line("alone", 33.0, age=7, attraction="big wheel"),
        ),
        (
            Sign("ISLAND ENTRY", 0.0, 16.0),
            Sign("CHARGE AT THE BAR", 16.0, 32.0),
            Sign("BIG WHEEL UNDER 7", 30.0, 50.0, "bottom"),
        ),
        (),
        ("platypus", "bagpipes"),
    ),
)
HELDOUT19_BY_NAME = {v.name: v for v in HELDOUT19_VIDEOS}


# ------------------------------------------------------------------- the twentieth held-out set (videos only)

# Five videos built after the nineteenth set had been asked once, whose questions are written by hand from a
# plain facts sheet (heldout20_facts.md) by someone who never sees the code: `python -m bench.qset heldout20`
# builds the videos only. Eight kinds of line no code was written for ('wristband', 'lunch', 'seats',
# 'cloakroom', 'stamps', 'doors', 'rubbish', 'cash'); slot values and sign texts no other set uses; footage in
# another mix than the nineteenth's (the long videos on vtest looped from 14 s and on the rabbit cartoon looped
# from 0.8 s; the short ones on tree.avi from 7.5 s, the car from 0.5 s and Megamind from 2 s), people counts
# where they are hand-checked (vtest, the one man in the car), and in the two long videos second lines under a
# top sign and bottom captions over the top signs. Lines checked against faster-whisper base (ingests --only
# asr,ocr into /tmp/h20/check*.duckdb); first: 'Anyone with a ... wristband' -> 'And one with a ... wrist and',
# 'queue' -> 'cue', 'bags' -> 'mags', 'Doors open' -> 'For open', 'Dores' and '4th open', 'stall' -> 'doll' and
# 'tall', 'long barn' -> 'long bar', 'craft tent' -> 'craft and', 'hay maze' -> 'A-Maze', 'pink' -> 'big',
# 'sports day is over' -> 'port stays over', 'bandstand' -> "man's tent", 'nine o'clock' -> 'high the clock';
# second: 'flower stand' -> 'flowers tend'; third: 'fruit stand' -> 'fruit and'; last: every key word right
# (numbers as digits, 'dog show is over' as 'dog shows it over', 'Collect' as 'Correct'), every sign read exactly.
HELDOUT20_VIDEOS: tuple[Video, ...] = (
    Video(
        "gazebo_times",
        Footage("vtest", 14.0, loops=_looped(14.0, 170.0), width=640),
        170.0,
        VTEST_SCENE,
        (
            _line("wristband", 3.0, color="purple", attraction="climbing wall"),
            _line("lunch", 24.0, room="dining hall", occasion="sheep show"),
            _line("seats", 45.0, count=3, who="wheelchair users"),
            _line("cloakroom", 66.0, place="side door", price=2),
            _line("stamps", 87.0, count=6, prize="kite"),
            _line("doors", 108.0, hour=7, show="magic lantern show"),
            _line("rubbish", 129.0, color="green", spot="picnic tables"),
            _line("cash", 150.0, stall="cheese stand", landmark="old well"),
        ),
        (
            Sign("PURPLE TICKETS FIRST", 0.0, 22.0),
            Sign("CLIMBING WALL", 3.0, 19.0, "top2"),
            Sign("LUNCH IN DINING HALL", 22.0, 44.0),
            Sign("FRONT ROWS RESERVED", 44.0, 64.0),
            Sign("3 ROWS", 46.0, 62.0, "bottom"),
            Sign("CLOAKROOM 2 DOLLARS", 64.0, 86.0),
            Sign("STAMP HUNT", 86.0, 106.0),
            Sign("WIN A KITE", 88.0, 104.0, "top2"),
            Sign("DOORS AT 7", 106.0, 128.0),
            Sign("GREEN BINS", 128.0, 150.0),
            Sign("CASH ONLY", 140.0, 170.0, "bottom"),
            Sign("CHEESE STAND", 150.0, 170.0),
        ),
        vtest_counts_looped(14.0, 170.0),
        ("flamingo", "xylophone"),
    ),
    Video(
        "thicket_report",
        Footage("bigbuckbunny", 0.8, loops=31, width=640, fps=25),
        160.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("cash", 3.0, stall="honey stand", landmark="bus stop"),
            _line("rubbish", 24.0, color="blue", spot="rose garden"),
            _line("doors", 45.0, hour=6, show="shadow play"),
            _line("stamps", 66.0, count=5, prize="teddy bear"),
            _line("cloakroom", 87.0, place="main gate", price=3),
            _line("seats", 108.0, count=2, who="grandparents"),
            _line("lunch", 129.0, room="village hall", occasion="dog show"),
            _line("wristband", 150.0, color="white", attraction="hedge maze"),
        ),
        (
            Sign("HONEY STAND", 0.0, 20.0),
            Sign("CASH MACHINE AT BUS STOP", 2.0, 18.0, "bottom"),
            Sign("BLUE BINS", 20.0, 42.0),
            Sign("SHADOW PLAY AT 6", 42.0, 62.0),
            Sign("STAMPS FOR A TEDDY", 62.0, 84.0),
            Sign("5 STALLS", 64.0, 80.0, "top2"),
            Sign("CLOAKROOM AT MAIN GATE", 84.0, 104.0),
            Sign("ROWS FOR GRANDPARENTS", 104.0, 126.0),
            Sign("LUNCH IN VILLAGE HALL", 126.0, 146.0),
            Sign("AFTER THE DOG SHOW", 128.0, 144.0, "bottom"),
            Sign("HEDGE MAZE", 146.0, 160.0),
        ),
        (),
        ("hedgehog", "trombone"),
    ),
    Video(
        "rafter_review",
        Footage("tree.avi", 7.5, loops=3, width=640, fps=15),
        50.0,
        TREE_SCENE,
        (
            _line("seats", 1.0, count=4, who="the choir"),
            _line("cash", 17.0, stall="ice cream van", landmark="car park"),
            _line("doors", 33.0, hour=8, show="jazz concert"),
        ),
        (
            Sign("SEATS FOR THE CHOIR", 0.0, 16.0),
            Sign("ICE CREAM CASH ONLY", 16.0, 32.0),
            Sign("JAZZ DOORS 8", 30.0, 50.0, "bottom"),
        ),
        (),
        ("mongoose", "banjo"),
    ),
    Video(
        "carriage_notes",
        Footage("carphone", 0.5, loops=13, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("lunch", 1.0, room="school hall", occasion="school play"),
            _line("rubbish", 17.0, color="yellow", spot="front gate"),
            _line("wristband", 33.0, color="red", attraction="bumper cars"),
        ),
        (
            Sign("LUNCH AFTER THE PLAY", 0.0, 16.0),
            Sign("YELLOW BINS", 16.0, 32.0),
            Sign("RED TICKETS", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (8.0, 25.0, 42.0)),
        ("ostrich", "ukulele"),
    ),
    Video(
        "trattoria_log",
        Footage("Megamind.avi", 2.0, loops=5, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("stamps", 1.0, count=4, prize="goldfish"),
            _line("cloakroom", 17.0, place="stage door", price=4),
            _line("doors", 33.0, hour=10, show="poetry slam"),
        ),
        (
            Sign("WIN A GOLDFISH", 0.0, 16.0),
            Sign("CLOAKROOM AT STAGE DOOR", 16.0, 32.0),
            Sign("POETRY SLAM AT 10", 30.0, 50.0, "bottom"),
        ),
        (),
        ("armadillo", "tuba"),
    ),
)
HELDOUT20_BY_NAME = {v.name: v for v in HELDOUT20_VIDEOS}


# ------------------------------------------------------------------- the twenty-first held-out set (videos only)

# Five videos built after the twentieth set had been asked once, whose questions are written by hand from a
# plain facts sheet (heldout21_facts.md) by someone who never sees the code: `python -m bench.qset heldout21`
# builds the videos only. Eight kinds of line no code was written for ('bottles', 'prizes', 'overflow',
# 'toilets', 'rain', 'cakes', 'halfprice', 'photos'); slot values and sign texts no other set uses; footage in
# another mix than the twentieth's (the long videos on vtest looped from 33 s and on the rabbit cartoon looped
# from 1.5 s; the short ones on tree.avi from 3 s, the car from 2 s and Megamind from 5 s), people counts where
# they are hand-checked (vtest, the one man in the car), and in the two long videos second lines under a top
# sign and bottom captions over the top signs. Lines checked against faster-whisper base (ingests --only
# asr,ocr into /tmp/h21/check*.duckdb); first: 'tea hut' and 'flag pole' -> 'teahut' and 'flagpole', 'the
# judge is Harold' -> 'the judges herald', 'Rosalind' -> 'roll the lid', 'boating lake' -> 'moating lake',
# 'scares the butterflies' -> 'cares the murder flies', 'Douglas will read out the raffle winner' -> 'The
# glist will read out the raffle wither', 'ticket booth' -> 'ticket, move', 'Children under eight get in' ->
# 'Kill the under-rate getting', 'theatre' -> 'theater', 'swimming baths' -> 'swimming pass'; second: 'raffle
# winner' -> 'raffle with her', 'Children under fourteen/six' garbled; third: 'under fourteen' -> 'under 40',
# 'petting zoo' -> 'padding zoo'; fourth: 'under eleven' -> 'will ever'; last: every key word right (numbers as
# digits, 'toilets' as 'toilet').
HELDOUT21_VIDEOS: tuple[Video, ...] = (
    Video(
        "orchard_dispatch",
        Footage("vtest", 33.0, loops=_looped(33.0, 170.0), width=640),
        170.0,
        VTEST_SCENE,
        (
            _line("bottles", 3.0, spot="coffee cart", landmark="west gate"),
            _line("prizes", 24.0, name="Gloria", hour=4),
            _line("overflow", 45.0, color="orange", landmark="cricket club"),
            _line("toilets", 66.0, landmark="library", thing="rose beds"),
            _line("rain", 87.0, event="brass band", room="school gym"),
            _line("cakes", 108.0, hour=2, name="Margaret"),
            _line("halfprice", 129.0, age=10, place="open air pool"),
            _line("photos", 150.0, room="glass house", reason="bright flashes harm the plants"),
        ),
        (
            Sign("WATER AT COFFEE CART", 0.0, 22.0),
            Sign("BY THE WEST GATE", 3.0, 19.0, "top2"),
            Sign("RAFFLE AT 4", 22.0, 44.0),
            Sign("CAR PARK IS FULL", 44.0, 64.0),
            Sign("USE CRICKET FIELD", 46.0, 62.0, "bottom"),
            Sign("TOILETS BEHIND LIBRARY", 64.0, 86.0),
            Sign("RAIN PLAN", 86.0, 106.0),
            Sign("BAND IN GYM", 88.0, 104.0, "top2"),
            Sign("CAKES CLOSE AT 2", 106.0, 128.0),
            Sign("UNDER 10 HALF PRICE", 128.0, 150.0),
            Sign("NO FLASH", 140.0, 170.0, "bottom"),
            Sign("GLASS HOUSE", 150.0, 170.0),
        ),
        vtest_counts_looped(33.0, 170.0),
        ("penguin", "harp"),
    ),
    Video(
        "meadow_ledger",
        Footage("bigbuckbunny", 1.5, loops=31, width=640, fps=25),
        160.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("photos", 3.0, room="chapel", reason="the paintings are very old"),
            _line("halfprice", 24.0, age=10, place="steam railway"),
            _line("cakes", 45.0, hour=3, name="Beatrice"),
            _line("rain", 66.0, event="puppet show", room="church hall"),
            _line("toilets", 87.0, landmark="pottery shed", thing="duck pond"),
            _line("overflow", 108.0, color="green", landmark="fire station"),
            _line("prizes", 129.0, name="Susan", hour=5),
            _line("bottles", 150.0, spot="first aid post", landmark="big oak tree"),
        ),
        (
            Sign("NO PHOTOS IN CHAPEL", 0.0, 20.0),
            Sign("OLD PAINTINGS", 2.0, 18.0, "bottom"),
            Sign("HALF PRICE UNDER 10", 20.0, 42.0),
            Sign("CAKE CONTEST", 42.0, 62.0),
            Sign("RAIN MEANS CHURCH HALL", 62.0, 84.0),
            Sign("PUPPETS MOVE INSIDE", 64.0, 80.0, "top2"),
            Sign("TOILETS BY POTTERY", 84.0, 104.0),
            Sign("GREEN CAR PARK FULL", 104.0, 126.0),
            Sign("RAFFLE AT 5", 126.0, 146.0),
            Sign("DRAWN BY SUSAN", 128.0, 144.0, "bottom"),
            Sign("WATER AT FIRST AID", 146.0, 160.0),
        ),
        (),
        ("walrus", "cello"),
    ),
    Video(
        "willow_memo",
        Footage("tree.avi", 3.0, loops=3, width=640, fps=15),
        50.0,
        TREE_SCENE,
        (
            _line("rain", 1.0, event="music quiz", room="town hall"),
            _line("prizes", 17.0, name="Vera", hour=6),
            _line("bottles", 33.0, spot="ticket office", landmark="main gate"),
        ),
        (
            Sign("QUIZ IN TOWN HALL IF WET", 0.0, 16.0),
            Sign("RAFFLE 6 PM", 16.0, 32.0),
            Sign("WATER AT TICKET OFFICE", 30.0, 50.0, "bottom"),
        ),
        (),
        ("gorilla", "bagpipes"),
    ),
    Video(
        "sedan_journal",
        Footage("carphone", 2.0, loops=14, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("toilets", 1.0, landmark="museum", thing="gift shop"),
            _line("halfprice", 17.0, age=6, place="farm park"),
            _line("photos", 33.0, room="concert hall", reason="the players find it distracting"),
        ),
        (
            Sign("TOILETS PAST GIFT SHOP", 0.0, 16.0),
            Sign("FARM PARK KIDS HALF", 16.0, 32.0),
            Sign("NO PHOTOS PLEASE", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (8.0, 25.0, 42.0)),
        ("camel", "accordion"),
    ),
    Video(
        "osteria_notes",
        Footage("Megamind.avi", 5.0, loops=5, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("cakes", 1.0, hour=11, name="Patricia"),
            _line("overflow", 17.0, color="white", landmark="post office"),
            _line("bottles", 33.0, spot="welcome desk", landmark="fire exit"),
        ),
        (
            Sign("CAKES BY 11", 0.0, 16.0),
            Sign("PARK BEHIND POST OFFICE", 16.0, 32.0),
            Sign("WATER AT WELCOME DESK", 30.0, 50.0, "bottom"),
        ),
        (),
        ("koala", "harmonica"),
    ),
)
HELDOUT21_BY_NAME = {v.name: v for v in HELDOUT21_VIDEOS}


# ------------------------------------------------------------------ the twenty-second held-out set (videos only)

# Five videos built after the twenty-first set had been asked once, whose questions are written by hand from a
# plain facts sheet (heldout22_facts.md) by someone who never sees the code: `python -m bench.qset heldout22`
# builds the videos only. Eight kinds of line no code was written for ('suncream', 'stage', 'dogshow',
# 'lostkid', 'picnic', 'stalls', 'choir', 'facepaint'); slot values and sign texts no other set uses; footage
# in another mix than the twenty-first's (the long videos on vtest looped from 12 s and on the rabbit cartoon
# looped from 4 s; the short ones on the street montage from 3 s, the car from 4 s and Megamind from 9 s),
# people counts where they are hand-checked (vtest, the one man in the car), and in the two long videos second
# lines under a top sign and bottom captions over the top signs. Lines checked against faster-whisper base
# (ingests --only asr,ocr into /tmp/h22/check*.duckdb); first: 'the dog show starts' -> 'the dog shows tarts',
# 'the queue starts by' -> 'the cute tart is like', 'Picnic tables' -> 'Big dick tables' and 'Big Nick tables',
# 'bandstand' -> "man's tent", 'blue rosette' -> 'Bluromet', 'fifteen food stalls' -> '15 foods tall'; last:
# every key word right but 'Face painting' -> 'Faced painting' once and 'sun cream' -> 'suncream' once (kept: a
# recognizer's slips a user meets too).
HELDOUT22_VIDEOS: tuple[Video, ...] = (
    Video(
        "lantern_courier",
        Footage("vtest", 12.0, loops=_looped(12.0, 170.0), width=640),
        170.0,
        VTEST_SCENE,
        (
            _line("suncream", 3.0, spot="boat house", hour=3),
            _line("stage", 24.0, hour=4, name="Oliver", instrument="trumpet", stage="north"),
            _line("dogshow", 45.0, hour=1, prize="silver cup"),
            _line("lostkid", 66.0, name="Edward", desk="information point"),
            _line("picnic", 87.0, area="east lawn", landmark="stone bridge"),
            _line("stalls", 108.0, count=12, area="river path"),
            _line("choir", 129.0, city="Glasgow", room="old barn"),
            _line("facepaint", 150.0, price=3, landmark="windmill"),
        ),
        (
            Sign("SUN CREAM AT BOAT HOUSE", 0.0, 22.0),
            Sign("FREE UNTIL 3", 4.0, 18.0, "top2"),
            Sign("TRUMPET AT 4", 22.0, 44.0),
            Sign("NORTH STAGE", 25.0, 40.0, "bottom"),
            Sign("DOG SHOW 1 PM", 44.0, 64.0),
            Sign("LOST CHILD AT INFO POINT", 64.0, 86.0),
            Sign("PICNIC ON EAST LAWN", 86.0, 106.0),
            Sign("NEAR THE STONE BRIDGE", 88.0, 104.0, "top2"),
            Sign("12 FOOD STALLS", 106.0, 128.0),
            Sign("CHOIR IN OLD BARN", 128.0, 150.0),
            Sign("FROM GLASGOW", 131.0, 146.0, "bottom"),
            Sign("FACE PAINT 3 DOLLARS", 150.0, 170.0),
        ),
        vtest_counts_looped(12.0, 170.0),
        ("zebra", "trombone"),
    ),
    Video(
        "thistle_bulletin",
        Footage("bigbuckbunny", 4.0, loops=32, width=640, fps=25),
        160.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("facepaint", 3.0, price=5, landmark="hedge maze"),
            _line("choir", 24.0, city="Cardiff", room="village hall"),
            _line("lostkid", 45.0, name="Simon", desk="first aid post"),
            _line("suncream", 66.0, spot="climbing wall", hour=2),
            _line("stage", 87.0, hour=6, name="Helen", instrument="flute", stage="south"),
            _line("dogshow", 108.0, hour=11, prize="gold medal"),
            _line("stalls", 129.0, count=9, area="high street"),
            _line("picnic", 150.0, area="apple orchard", landmark="old well"),
        ),
        (
            Sign("FACE PAINT BY THE MAZE", 0.0, 20.0),
            Sign("5 DOLLARS EACH", 2.0, 18.0, "bottom"),
            Sign("CARDIFF CHOIR", 20.0, 42.0),
            Sign("LOST CHILD SIMON", 42.0, 62.0),
            Sign("SUN CREAM HERE", 62.0, 84.0),
            Sign("AT THE CLIMBING WALL", 64.0, 80.0, "top2"),
            Sign("FLUTE ON SOUTH STAGE", 84.0, 104.0),
            Sign("DOG SHOW AT 11", 104.0, 126.0),
            Sign("PRIZE GOLD MEDAL", 108.0, 123.0, "bottom"),
            Sign("9 STALLS ON HIGH STREET", 126.0, 146.0),
            Sign("PICNIC IN ORCHARD", 146.0, 160.0),
        ),
        (),
        ("flamingo", "banjo"),
    ),
    Video(
        "cobble_digest",
        Footage("bikes", 3.0, loops=6, fps=25),
        50.0,
        BIKES_SCENE,
        (
            _line("dogshow", 1.0, hour=3, prize="red ribbon"),
            _line("choir", 17.0, city="Belfast", room="chapel"),
            _line("picnic", 33.0, area="cricket pitch", landmark="scoreboard"),
        ),
        (
            Sign("DOG SHOW 3 PM", 0.0, 16.0),
            Sign("BELFAST CHOIR IN CHAPEL", 16.0, 32.0),
            Sign("PICNIC BY SCOREBOARD", 30.0, 50.0, "bottom"),
        ),
        (),
        ("hamster", "tuba"),
    ),
    Video(
        "coupe_bulletin",
        Footage("carphone", 4.0, loops=14, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("stalls", 1.0, count=15, area="sea front"),
            _line("lostkid", 17.0, name="Martin", desk="ticket office"),
            _line("suncream", 33.0, spot="lifeguard hut", hour=5),
        ),
        (
            Sign("15 STALLS ON SEA FRONT", 0.0, 16.0),
            Sign("MARTIN AT TICKET OFFICE", 16.0, 32.0),
            Sign("SUN CREAM TILL 5", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (9.0, 26.0, 40.0)),
        ("otter", "xylophone"),
    ),
    Video(
        "taverna_minutes",
        Footage("Megamind.avi", 9.0, loops=6, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("facepaint", 1.0, price=4, landmark="toy shop"),
            _line("stage", 17.0, hour=7, name="Diana", instrument="drums", stage="main"),
            _line("picnic", 33.0, area="river bank", landmark="boat club"),
        ),
        (
            Sign("FACE PAINT 4 DOLLARS", 0.0, 16.0),
            Sign("DIANA ON DRUMS AT 7", 16.0, 32.0),
            Sign("PICNIC ON RIVER BANK", 30.0, 50.0, "bottom"),
        ),
        (),
        ("pelican", "ukulele"),
    ),
)
HELDOUT22_BY_NAME = {v.name: v for v in HELDOUT22_VIDEOS}


# The twenty-third held-out set (bench/qset/heldout23.jsonl): five videos on the footage of the others (vtest
# from 20 s), eight kinds no other set says, written apart from the code and asked once. Its long videos put
# second lines under a top sign and bottom captions under the top signs; people counts are the hand-checked
# ones of vtest and of the one man in the car.
HELDOUT23_VIDEOS: tuple[Video, ...] = (
    Video(
        "dovecote_gazette",
        Footage("vtest", 20.0, loops=_looped(20.0, 170.0), width=640),
        170.0,
        VTEST_SCENE,
        (
            _line("archery", 3.0, hour=2, building="village school"),
            _line("barbecue", 24.0, landmark="car wash", price=6),
            _line("treasure", 45.0, spot="main gate", prize="gold coin"),
            _line("carousel", 66.0, landmark="signal box", hour=4),
            _line("bookswap", 87.0, room="map room"),
            _line("bonfire", 108.0, area="north field", hour=8),
            _line("duckrace", 129.0, river="mill stream", hour=3, price=2),
            _line("glass", 150.0, color="green", landmark="cow shed"),
        ),
        (
            Sign("ARCHERY AT 2", 0.0, 22.0),
            Sign("BEHIND VILLAGE SCHOOL", 4.0, 18.0, "top2"),
            Sign("BARBECUE 6 DOLLARS", 22.0, 44.0),
            Sign("BY THE CAR WASH", 25.0, 40.0, "bottom"),
            Sign("TREASURE HUNT", 44.0, 64.0),
            Sign("CAROUSEL FREE TILL 4", 64.0, 86.0),
            Sign("BOOK SWAP IN MAP ROOM", 86.0, 106.0),
            Sign("BONFIRE AT 8", 106.0, 128.0),
            Sign("ON NORTH FIELD", 109.0, 124.0, "bottom"),
            Sign("DUCK RACE 3 PM", 128.0, 150.0),
            Sign("2 DOLLARS A DUCK", 131.0, 146.0, "top2"),
            Sign("GLASS IN GREEN BINS", 150.0, 170.0),
        ),
        vtest_counts_looped(20.0, 170.0),
        ("heron", "dulcimer"),
    ),
    Video(
        "hollow_herald",
        Footage("bigbuckbunny", 2.0, loops=31, width=640, fps=25),
        160.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("glass", 3.0, color="blue", landmark="farm shop"),
            _line("duckrace", 24.0, river="canal", hour=10, price=3),
            _line("bonfire", 45.0, area="top field", hour=9),
            _line("bookswap", 66.0, room="church porch"),
            _line("carousel", 87.0, landmark="bus stop", hour=5),
            _line("treasure", 108.0, spot="cider press", prize="chocolate egg"),
            _line("barbecue", 129.0, landmark="fire station", price=8),
            _line("archery", 150.0, hour=11, building="stable yard"),
        ),
        (
            Sign("GLASS IN BLUE BINS", 0.0, 20.0),
            Sign("BY THE FARM SHOP", 2.0, 18.0, "bottom"),
            Sign("DUCK RACE ON CANAL", 20.0, 42.0),
            Sign("BONFIRE ON TOP FIELD", 42.0, 62.0),
            Sign("BOOK SWAP", 62.0, 84.0),
            Sign("IN THE CHURCH PORCH", 64.0, 80.0, "top2"),
            Sign("CAROUSEL BY BUS STOP", 84.0, 104.0),
            Sign("TREASURE HUNT PRIZE", 104.0, 126.0),
            Sign("CHOCOLATE EGG", 108.0, 123.0, "bottom"),
            Sign("BARBECUE 8 DOLLARS", 126.0, 146.0),
            Sign("ARCHERY AT 11", 146.0, 160.0),
        ),
        (),
        ("kingfisher", "panpipes"),
    ),
    Video(
        "sprocket_notes",
        Footage("bikes", 3.0, loops=6, fps=25),
        50.0,
        BIKES_SCENE,
        (
            _line("treasure", 1.0, spot="bike rack", prize="silver coin"),
            _line("bonfire", 17.0, area="sand dunes", hour=7),
            _line("glass", 33.0, color="white", landmark="post box"),
        ),
        (
            Sign("TREASURE HUNT AT BIKE RACK", 0.0, 16.0),
            Sign("BONFIRE 7 PM", 16.0, 32.0),
            Sign("GLASS IN WHITE BINS", 30.0, 50.0, "bottom"),
        ),
        (),
        ("gerbil", "french horn"),
    ),
    Video(
        "hansom_bulletin",
        Footage("carphone", 4.0, loops=14, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("archery", 1.0, hour=10, building="lifeboat station"),
            _line("carousel", 17.0, landmark="pier", hour=6),
            _line("bookswap", 33.0, room="garden shed"),
        ),
        (
            Sign("ARCHERY 10 AM", 0.0, 16.0),
            Sign("CAROUSEL ON PIER", 16.0, 32.0),
            Sign("BOOK SWAP IN GARDEN SHED", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (9.0, 26.0, 40.0)),
        ("ferret", "hyena"),
    ),
    Video(
        "cantina_minutes",
        Footage("Megamind.avi", 9.0, loops=6, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("duckrace", 1.0, river="lower lake", hour=12, price=4),
            _line("barbecue", 17.0, landmark="tea room", price=5),
            _line("carousel", 33.0, landmark="harbour wall", hour=9),
        ),
        (
            Sign("DUCK RACE AT 12", 0.0, 16.0),
            Sign("BARBECUE BY TEA ROOM", 16.0, 32.0),
            Sign("CAROUSEL FREE TILL 9", 30.0, 50.0, "bottom"),
        ),
        (),
        ("cockatoo", "hurdy-gurdy"),
    ),
)
HELDOUT23_BY_NAME = {v.name: v for v in HELDOUT23_VIDEOS}


# The twenty-fourth held-out set (bench/qset/heldout24.jsonl): five videos on the footage of the others (vtest
# from 30 s), eight kinds no other set says, written apart from the code and asked once.
HELDOUT24_VIDEOS: tuple[Video, ...] = (
    Video(
        "weathervane_gazette",
        Footage("vtest", 30.0, loops=_looped(30.0, 170.0), width=640),
        170.0,
        VTEST_SCENE,
        (
            _line("luckydip", 3.0, price=2, prize="toy car"),
            _line("coconut", 24.0, landmark="wishing well", count=2),
            _line("plantsale", 45.0, room="potting shed", hour=4),
            _line("eggspoon", 66.0, hour=2, area="west lawn"),
            _line("tractor", 87.0, spot="village hall", minutes=15),
            _line("juggler", 108.0, name="Percy", landmark="old well", hour=5),
            _line("lifejacket", 129.0, spot="jetty"),
            _line("marshmallow", 150.0, stall="tuck shop", price=3),
        ),
        (
            Sign("LUCKY DIP 2 DOLLARS", 0.0, 22.0),
            Sign("WIN A TOY CAR", 4.0, 18.0, "top2"),
            Sign("COCONUT SHY", 22.0, 44.0),
            Sign("BY THE WISHING WELL", 25.0, 40.0, "bottom"),
            Sign("PLANT SALE TILL 4", 44.0, 64.0),
            Sign("EGG AND SPOON RACE", 64.0, 86.0),
            Sign("TRACTOR RIDES", 86.0, 106.0),
            Sign("RIDES EVERY 15 MINUTES", 89.0, 104.0, "bottom"),
            Sign("JUGGLER AT 5", 106.0, 128.0),
            Sign("LIFE JACKETS AT JETTY", 128.0, 150.0),
            Sign("WEAR ONE ON BOATS", 131.0, 146.0, "top2"),
            Sign("MARSHMALLOWS 3 DOLLARS", 150.0, 170.0),
        ),
        vtest_counts_looped(30.0, 170.0),
        ("puffin", "sousaphone"),
    ),
    Video(
        "thimble_herald",
        Footage("bigbuckbunny", 3.0, loops=31, width=640, fps=25),
        160.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("marshmallow", 3.0, stall="farm gate", price=4),
            _line("lifejacket", 24.0, spot="boathouse"),
            _line("juggler", 45.0, name="Rosa", landmark="stone arch", hour=3),
            _line("tractor", 66.0, spot="lower field", minutes=20),
            _line("eggspoon", 87.0, hour=11, area="old orchard"),
            _line("plantsale", 108.0, room="west wing", hour=6),
            _line("coconut", 129.0, landmark="tea tent", count=7),
            _line("luckydip", 150.0, price=5, prize="rubber duck"),
        ),
        (
            Sign("MARSHMALLOWS AT FARM GATE", 0.0, 20.0),
            Sign("4 DOLLARS A BAG", 2.0, 18.0, "bottom"),
            Sign("LIFE JACKETS", 20.0, 42.0),
            Sign("JUGGLER BY STONE ARCH", 42.0, 62.0),
            Sign("TRACTOR RIDES", 62.0, 84.0),
            Sign("ONE EVERY 20 MINUTES", 64.0, 80.0, "top2"),
            Sign("EGG AND SPOON RACE 11 AM", 84.0, 104.0),
            Sign("PLANT SALE IN WEST WING", 104.0, 126.0),
            Sign("ENDS AT 6", 108.0, 123.0, "bottom"),
            Sign("COCONUT SHY BY TEA TENT", 126.0, 146.0),
            Sign("LUCKY DIP", 146.0, 160.0),
        ),
        (),
        ("kookaburra", "bandoneon"),
    ),
    Video(
        "chainring_notes",
        Footage("bikes", 3.0, loops=6, fps=25),
        50.0,
        BIKES_SCENE,
        (
            _line("eggspoon", 1.0, hour=10, area="market square"),
            _line("marshmallow", 17.0, stall="corner shop", price=2),
            _line("juggler", 33.0, name="Owen", landmark="town clock", hour=1),
        ),
        (
            Sign("EGG AND SPOON RACE AT 10", 0.0, 16.0),
            Sign("MARSHMALLOWS AT CORNER SHOP", 16.0, 32.0),
            Sign("JUGGLER BY TOWN CLOCK", 30.0, 50.0, "bottom"),
        ),
        (),
        ("ocelot", "balalaika"),
    ),
    Video(
        "landau_bulletin",
        Footage("carphone", 4.0, loops=14, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("coconut", 1.0, landmark="garden centre", count=5),
            _line("juggler", 17.0, name="Ivy", landmark="library steps", hour=2),
            _line("luckydip", 33.0, price=3, prize="pencil case"),
        ),
        (
            Sign("COCONUT SHY 5 BALLS", 0.0, 16.0),
            Sign("JUGGLER IVY AT 2", 16.0, 32.0),
            Sign("LUCKY DIP 3 DOLLARS", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (9.0, 26.0, 40.0)),
        ("euphonium", "bouzouki"),
    ),
    Video(
        "brasserie_minutes",
        Footage("Megamind.avi", 9.0, loops=6, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("plantsale", 1.0, room="conservatory", hour=7),
            _line("lifejacket", 17.0, spot="boat steps"),
            _line("coconut", 33.0, landmark="front porch", count=4),
        ),
        (
            Sign("PLANT SALE TILL 7", 0.0, 16.0),
            Sign("LIFE JACKETS AT BOAT STEPS", 16.0, 32.0),
            Sign("COCONUT SHY 4 BALLS", 30.0, 50.0, "bottom"),
        ),
        (),
        ("vibraphone", "tapir"),
    ),
)
HELDOUT24_BY_NAME = {v.name: v for v in HELDOUT24_VIDEOS}


# The twenty-fifth held-out set (bench/qset/heldout25.jsonl): five videos on the footage of the others (vtest
# from 40 s), eight kinds no other set says, written apart from the code and asked once.
HELDOUT25_VIDEOS: tuple[Video, ...] = (
    Video(
        "belfry_gazette",
        Footage("vtest", 40.0, loops=_looped(40.0, 170.0), width=640),
        170.0,
        VTEST_SCENE,
        (
            _line("balloon", 3.0, landmark="fountain", price=3),
            _line("haybale", 24.0, hour=2, landmark="duck pond"),
            _line("lemonade", 45.0, stall="cake stall", price=4),
            _line("welly", 66.0, area="top meadow", prize="garden gnome"),
            _line("dunktank", 87.0, landmark="cricket pavilion", price=2),
            _line("hookduck", 108.0, prize="toy drum"),
            _line("candyfloss", 129.0, room="church hall", hour=5),
            _line("ferris", 150.0, hour=4, crew="fire crew"),
        ),
        (
            Sign("BALLOON ANIMALS 3 EACH", 0.0, 22.0),
            Sign("BY THE FOUNTAIN", 4.0, 18.0, "top2"),
            Sign("HAY BALE CLIMB AT 2", 22.0, 44.0),
            Sign("BESIDE THE DUCK POND", 25.0, 40.0, "bottom"),
            Sign("LEMONADE 4 DOLLARS", 44.0, 64.0),
            Sign("WELLY THROWING", 64.0, 86.0),
            Sign("DUNK TANK 2 DOLLARS", 86.0, 106.0),
            Sign("BY THE CRICKET PAVILION", 89.0, 104.0, "bottom"),
            Sign("HOOK A DUCK", 106.0, 128.0),
            Sign("YELLOW DUCK WINS A DRUM", 110.0, 124.0, "top2"),
            Sign("CANDY FLOSS CHURCH HALL", 128.0, 150.0),
            Sign("FERRIS WHEEL SHUT TILL 4", 150.0, 170.0),
        ),
        vtest_counts_looped(40.0, 170.0),
        ("salamander", "piccolo"),
    ),
    Video(
        "tinderbox_herald",
        Footage("bigbuckbunny", 3.0, loops=31, width=640, fps=25),
        160.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("ferris", 3.0, hour=6, crew="safety team"),
            _line("candyfloss", 24.0, room="tea room", hour=9),
            _line("hookduck", 45.0, prize="teddy bear"),
            _line("dunktank", 66.0, landmark="main gate", price=4),
            _line("welly", 87.0, area="long field", prize="box of chocolates"),
            _line("lemonade", 108.0, stall="snack bar", price=2),
            _line("haybale", 129.0, hour=11, landmark="horse paddock"),
            _line("balloon", 150.0, landmark="clock tower", price=5),
        ),
        (
            Sign("FERRIS WHEEL SHUT TILL 6", 0.0, 20.0),
            Sign("SAFETY CHECKS", 2.0, 18.0, "bottom"),
            Sign("CANDY FLOSS", 20.0, 42.0),
            Sign("HOOK A DUCK TEDDY PRIZE", 42.0, 62.0),
            Sign("DUNK TANK AT MAIN GATE", 62.0, 84.0),
            Sign("4 DOLLARS 3 THROWS", 64.0, 80.0, "top2"),
            Sign("WELLY THROWING LONG FIELD", 84.0, 104.0),
            Sign("LEMONADE AT SNACK BAR", 104.0, 126.0),
            Sign("2 DOLLARS A CUP", 108.0, 123.0, "bottom"),
            Sign("HAY BALE CLIMB 11 AM", 126.0, 146.0),
            Sign("BALLOON ANIMALS", 146.0, 160.0),
        ),
        (),
        ("gecko", "steelpan"),
    ),
    Video(
        "freewheel_notes",
        Footage("bikes", 3.0, loops=6, fps=25),
        50.0,
        BIKES_SCENE,
        (
            _line("balloon", 1.0, landmark="war memorial", price=2),
            _line("ferris", 17.0, hour=3, crew="engineer"),
            _line("lemonade", 33.0, stall="farm shop", price=3),
        ),
        (
            Sign("BALLOON ANIMALS 2 DOLLARS", 0.0, 16.0),
            Sign("FERRIS WHEEL OPENS AT 3", 16.0, 32.0),
            Sign("LEMONADE AT FARM SHOP", 30.0, 50.0, "bottom"),
        ),
        (),
        ("ibex", "cowbell"),
    ),
    Video(
        "phaeton_bulletin",
        Footage("carphone", 4.0, loops=14, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("hookduck", 1.0, prize="toy boat"),
            _line("candyfloss", 17.0, room="school hall", hour=8),
            _line("welly", 33.0, area="rugby pitch", prize="wooden spoon"),
        ),
        (
            Sign("HOOK A DUCK TOY BOAT", 0.0, 16.0),
            Sign("CANDY FLOSS TILL 8", 16.0, 32.0),
            Sign("WELLY ON RUGBY PITCH", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (9.0, 26.0, 40.0)),
        ("okapi", "spinet"),
    ),
    Video(
        "canteen_minutes",
        Footage("Megamind.avi", 9.0, loops=6, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("dunktank", 1.0, landmark="bowling green", price=3),
            _line("haybale", 17.0, hour=10, landmark="stable yard"),
            _line("ferris", 33.0, hour=7, crew="ride team"),
        ),
        (
            Sign("DUNK TANK 3 DOLLARS", 0.0, 16.0),
            Sign("HAY BALE CLIMB AT 10", 16.0, 32.0),
            Sign("FERRIS WHEEL SHUT TILL 7", 30.0, 50.0, "bottom"),
        ),
        (),
        ("capybara", "crane"),
    ),
)
HELDOUT25_BY_NAME = {v.name: v for v in HELDOUT25_VIDEOS}


# The twenty-sixth held-out set (bench/qset/heldout26.jsonl): five videos on the footage of the others (vtest
# from 25 s, the tree from 5 s), eight kinds no other set says, written apart from the code and asked once.
HELDOUT26_VIDEOS: tuple[Video, ...] = (
    Video(
        "weir_chronicle",
        Footage("vtest", 25.0, loops=_looped(25.0, 170.0), width=640),
        170.0,
        VTEST_SCENE,
        (
            _line("pie", 3.0, hour=2, room="village hall"),
            _line("toffee", 24.0, price=2, stall="cake stall"),
            _line("crazygolf", 45.0, landmark="tennis courts", price=3),
            _line("falcon", 66.0, area="lower field", hour=3),
            _line("hotdog", 87.0, stall="cider tent", hour=6),
            _line("fudge", 108.0, room="old barn", price=4),
            _line("bubble", 129.0, area="car park", cause="the green is flooded"),
            _line("drummers", 150.0, landmark="church gate", hour=5),
        ),
        (
            Sign("PIE CONTEST AT 2", 0.0, 22.0),
            Sign("IN THE VILLAGE HALL", 4.0, 18.0, "top2"),
            Sign("TOFFEE APPLES 2 DOLLARS", 22.0, 44.0),
            Sign("AT THE CAKE STALL", 25.0, 40.0, "bottom"),
            Sign("CRAZY GOLF 3 A GAME", 44.0, 64.0),
            Sign("FALCON DISPLAY AT 3", 64.0, 86.0),
            Sign("HOT DOGS TILL 6", 86.0, 106.0),
            Sign("CIDER TENT", 89.0, 104.0, "bottom"),
            Sign("FUDGE 4 DOLLARS A BOX", 106.0, 128.0),
            Sign("BUBBLE SHOW IN CAR PARK", 128.0, 150.0),
            Sign("GREEN IS FLOODED", 131.0, 146.0, "top2"),
            Sign("DRUMMERS AT 5", 150.0, 170.0),
        ),
        vtest_counts_looped(25.0, 170.0),
        ("aardvark", "sitar"),
    ),
    Video(
        "hayloft_courier",
        Footage("bigbuckbunny", 2.5, loops=31, width=640, fps=25),
        160.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("drummers", 3.0, landmark="old well", hour=11),
            _line("bubble", 24.0, area="school field", cause="the marquee blew down"),
            _line("fudge", 45.0, room="kitchen", price=5),
            _line("hotdog", 66.0, stall="cafe", hour=10),
            _line("falcon", 87.0, area="hockey pitch", hour=12),
            _line("crazygolf", 108.0, landmark="car park gate", price=2),
            _line("toffee", 129.0, price=3, stall="sweet shop"),
            _line("pie", 150.0, hour=4, room="scout hut"),
        ),
        (
            Sign("DRUMMERS AT 11", 0.0, 20.0),
            Sign("BY THE OLD WELL", 2.0, 18.0, "bottom"),
            Sign("BUBBLE SHOW MOVED", 20.0, 42.0),
            Sign("FUDGE IN THE KITCHEN", 42.0, 62.0),
            Sign("HOT DOGS AT THE CAFE", 62.0, 84.0),
            Sign("UNTIL 10", 64.0, 80.0, "top2"),
            Sign("FALCON DISPLAY AT 12", 84.0, 104.0),
            Sign("CRAZY GOLF 2 DOLLARS", 104.0, 126.0),
            Sign("BY CAR PARK GATE", 108.0, 123.0, "bottom"),
            Sign("TOFFEE AT SWEET SHOP", 126.0, 146.0),
            Sign("PIE CONTEST SCOUT HUT", 146.0, 160.0),
        ),
        (),
        ("axolotl", "theremin"),
    ),
    Video(
        "sapling_notes",
        Footage("tree.avi", 5.0, loops=3, width=640, fps=15),
        50.0,
        TREE_SCENE,
        (
            _line("crazygolf", 1.0, landmark="church", price=4),
            _line("drummers", 17.0, landmark="clock tower", hour=3),
            _line("hotdog", 33.0, stall="bar", hour=7),
        ),
        (
            Sign("CRAZY GOLF 4 DOLLARS", 0.0, 16.0),
            Sign("DRUMMERS AT 3", 16.0, 32.0),
            Sign("HOT DOGS AT THE BAR", 30.0, 50.0, "bottom"),
        ),
        (),
        ("tortoise", "kazoo"),
    ),
    Video(
        "brougham_bulletin",
        Footage("carphone", 1.0, loops=13, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("toffee", 1.0, price=5, stall="gift shop"),
            _line("falcon", 17.0, area="east field", hour=2),
            _line("fudge", 33.0, room="main hall", price=3),
        ),
        (
            Sign("TOFFEE APPLES 5", 0.0, 16.0),
            Sign("FALCON DISPLAY AT 2", 16.0, 32.0),
            Sign("FUDGE IN MAIN HALL", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (9.0, 26.0, 40.0)),
        ("chinchilla", "bassoon"),
    ),
    Video(
        "pantry_minutes",
        Footage("Megamind.avi", 4.0, loops=5, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("bubble", 1.0, area="village green", cause="the field is too muddy"),
            _line("pie", 17.0, hour=6, room="pub garden"),
            _line("falcon", 33.0, area="cricket ground", hour=1),
        ),
        (
            Sign("BUBBLE SHOW MOVED", 0.0, 16.0),
            Sign("PIE CONTEST AT 6", 16.0, 32.0),
            Sign("FALCONS AT 1", 30.0, 50.0, "bottom"),
        ),
        (),
        ("toucan", "marimba"),
    ),
)
HELDOUT26_BY_NAME = {v.name: v for v in HELDOUT26_VIDEOS}


HELDOUT27_VIDEOS: tuple[Video, ...] = (
    Video(
        "spillway_gazette",
        Footage("vtest", 55.0, loops=_looped(55.0, 170.0), width=640),
        170.0,
        VTEST_SCENE,
        (
            _line("storyteller", 3.0, hour=2, room="coach house"),
            _line("pretzel", 23.0, price=3, stall="snack van"),
            _line("paddleboat", 46.0, landmark="boat ramp", price=4),
            _line("frisbee", 66.0, area="school yard", hour=11),
            _line("icedtea", 88.0, stall="tea hut", hour=6),
            _line("cupcake", 107.0, room="reading room", price=5),
            _line("agility", 129.0, area="far field", cause="the stage is broken"),
            _line("folksingers", 151.0, landmark="water tower", hour=4),
        ),
        (
            Sign("STORYTELLER AT 2", 0.0, 21.0),
            Sign("IN THE COACH HOUSE", 4.0, 18.0, "top2"),
            Sign("PRETZELS 3 DOLLARS", 21.0, 44.0),
            Sign("AT THE SNACK VAN", 24.0, 40.0, "bottom"),
            Sign("PADDLE BOATS 4 A RIDE", 44.0, 64.0),
            Sign("FRISBEE AT 11", 64.0, 86.0),
            Sign("ICED TEA TILL 6", 86.0, 105.0),
            Sign("TEA HUT", 90.0, 103.0, "bottom"),
            Sign("CUPCAKES 5 DOLLARS A BOX", 105.0, 127.0),
            Sign("DOG AGILITY MOVED", 127.0, 149.0),
            Sign("STAGE IS BROKEN", 131.0, 146.0, "top2"),
            Sign("FOLK SINGERS AT 4", 149.0, 170.0),
        ),
        vtest_counts_looped(55.0, 170.0),
        ("dingo", "oboe"),
    ),
    Video(
        "thatch_courier",
        Footage("bigbuckbunny", 4.0, loops=32, width=640, fps=25),
        160.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("folksingers", 3.0, landmark="phone box", hour=12),
            _line("agility", 24.0, area="lower field", cause="the path is flooded"),
            _line("cupcake", 45.0, room="sun lounge", price=2),
            _line("icedtea", 66.0, stall="corner shop", hour=7),
            _line("frisbee", 87.0, area="upper field", hour=1),
            _line("paddleboat", 108.0, landmark="old oak tree", price=3),
            _line("pretzel", 129.0, price=4, stall="juice bar"),
            _line("storyteller", 150.0, hour=10, room="hay barn"),
        ),
        (
            Sign("FOLK SINGERS AT 12", 0.0, 20.0),
            Sign("BY THE PHONE BOX", 2.0, 18.0, "bottom"),
            Sign("DOG AGILITY MOVED", 20.0, 42.0),
            Sign("CUPCAKES IN SUN LOUNGE", 42.0, 62.0),
            Sign("ICED TEA AT CORNER SHOP", 62.0, 84.0),
            Sign("UNTIL 7", 64.0, 80.0, "top2"),
            Sign("FRISBEE AT 1", 84.0, 104.0),
            Sign("PADDLE BOATS 3 DOLLARS", 104.0, 126.0),
            Sign("BY THE OAK TREE", 108.0, 123.0, "bottom"),
            Sign("PRETZELS AT JUICE BAR", 126.0, 146.0),
            Sign("STORYTELLER IN HAY BARN", 146.0, 160.0),
        ),
        (),
        ("marmot", "bongo"),
    ),
    Video(
        "acorn_notes",
        Footage("tree.avi", 2.0, loops=3, width=640, fps=15),
        50.0,
        TREE_SCENE,
        (
            _line("paddleboat", 1.0, landmark="old mill", price=5),
            _line("folksingers", 17.0, landmark="town hall", hour=3),
            _line("icedtea", 33.0, stall="cafe", hour=5),
        ),
        (
            Sign("PADDLE BOATS 5 DOLLARS", 0.0, 16.0),
            Sign("FOLK SINGERS AT 3", 16.0, 32.0),
            Sign("ICED TEA AT THE CAFE", 30.0, 50.0, "bottom"),
        ),
        (),
        ("ibex", "glockenspiel"),
    ),
    Video(
        "barouche_bulletin",
        Footage("carphone", 2.0, loops=14, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("pretzel", 1.0, price=2, stall="gift shop"),
            _line("frisbee", 17.0, area="west field", hour=2),
            _line("cupcake", 33.0, room="main hall", price=4),
        ),
        (
            Sign("PRETZELS 2 DOLLARS", 0.0, 16.0),
            Sign("FRISBEE AT 2", 16.0, 32.0),
            Sign("CUPCAKES IN MAIN HALL", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (8.0, 25.0, 41.0)),
        ("okapi", "harpsichord"),
    ),
    Video(
        "scullery_minutes",
        Footage("Megamind.avi", 6.0, loops=6, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("agility", 1.0, area="playground", cause="the floor is wet"),
            _line("storyteller", 17.0, hour=6, room="library"),
            _line("frisbee", 33.0, area="car park", hour=9),
        ),
        (
            Sign("DOG AGILITY MOVED", 0.0, 16.0),
            Sign("STORYTELLER AT 6", 16.0, 32.0),
            Sign("FRISBEE AT 9", 30.0, 50.0, "bottom"),
        ),
        (),
        ("capybara", "xylophone"),
    ),
)
HELDOUT27_BY_NAME = {v.name: v for v in HELDOUT27_VIDEOS}


HELDOUT28_VIDEOS: tuple[Video, ...] = (
    Video(
        "millpond_newsletter",
        Footage("vtest", 58.0, loops=_looped(58.0, 170.0), width=640),
        170.0,
        VTEST_SCENE,
        (
            _line("comedian", 3.0, hour=2, room="green room"),
            _line("sausagerolls", 23.0, stall="pie shop", price=3),
            _line("vintagecar", 46.0, landmark="stone lion", price=5),
            _line("penalty", 66.0, area="church field", hour=4),
            _line("strawberries", 88.0, hour=6, stall="milk bar"),
            _line("brownies", 107.0, room="sewing room", price=2),
            _line("unicyclists", 129.0, area="horse field", cause="the wind is too strong"),
            _line("quartet", 151.0, landmark="castle wall", hour=7),
        ),
        (
            Sign("COMEDIAN AT 2", 0.0, 21.0),
            Sign("IN THE GREEN ROOM", 4.0, 18.0, "top2"),
            Sign("SAUSAGE ROLLS", 21.0, 44.0),
            Sign("AT THE PIE SHOP", 24.0, 40.0, "bottom"),
            Sign("VINTAGE CAR 5 DOLLARS", 44.0, 64.0),
            Sign("PENALTY SHOOTOUT AT 4", 64.0, 86.0),
            Sign("STRAWBERRIES TILL 6", 86.0, 105.0),
            Sign("MILK BAR", 90.0, 103.0, "bottom"),
            Sign("BROWNIES 2 DOLLARS", 105.0, 127.0),
            Sign("UNICYCLISTS MOVED", 127.0, 149.0),
            Sign("WIND TOO STRONG", 131.0, 146.0, "top2"),
            Sign("STRING QUARTET AT 7", 149.0, 170.0),
        ),
        vtest_counts_looped(58.0, 170.0),
        ("lynx", "timpani"),
    ),
    Video(
        "hopyard_crier",
        Footage("bigbuckbunny", 3.0, loops=31, width=640, fps=25),
        160.0,
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches; no people.",
        (
            _line("quartet", 3.0, landmark="totem pole", hour=11),
            _line("unicyclists", 24.0, area="mill field", cause="the sun is too hot"),
            _line("brownies", 45.0, room="club room", price=4),
            _line("strawberries", 66.0, hour=5, stall="flower cart"),
            _line("penalty", 87.0, area="south field", hour=10),
            _line("vintagecar", 108.0, landmark="iron gate", price=6),
            _line("sausagerolls", 129.0, stall="lunch wagon", price=2),
            _line("comedian", 150.0, hour=9, room="drawing room"),
        ),
        (
            Sign("STRING QUARTET AT 11", 0.0, 20.0),
            Sign("BY THE TOTEM POLE", 2.0, 18.0, "bottom"),
            Sign("UNICYCLISTS MOVED", 20.0, 42.0),
            Sign("BROWNIES IN CLUB ROOM", 42.0, 62.0),
            Sign("STRAWBERRIES AT FLOWER CART", 62.0, 84.0),
            Sign("UNTIL 5", 64.0, 80.0, "top2"),
            Sign("PENALTY SHOOTOUT AT 10", 84.0, 104.0),
            Sign("VINTAGE CAR 6 DOLLARS", 104.0, 126.0),
            Sign("FROM THE IRON GATE", 108.0, 123.0, "bottom"),
            Sign("SAUSAGE ROLLS AT LUNCH WAGON", 126.0, 146.0),
            Sign("COMEDIAN IN DRAWING ROOM", 146.0, 160.0),
        ),
        (),
        ("wallaby", "lyre"),
    ),
    Video(
        "trellis_jottings",
        Footage("tree.avi", 7.5, loops=3, width=640, fps=15),
        50.0,
        TREE_SCENE,
        (
            _line("vintagecar", 1.0, landmark="signpost", price=4),
            _line("comedian", 17.0, hour=3, room="long room"),
            _line("strawberries", 33.0, hour=8, stall="food truck"),
        ),
        (
            Sign("VINTAGE CAR 4 DOLLARS", 0.0, 16.0),
            Sign("COMEDIAN AT 3", 16.0, 32.0),
            Sign("STRAWBERRIES UNTIL 8", 30.0, 50.0, "bottom"),
        ),
        (),
        ("buffalo", "celesta"),
    ),
    Video(
        "tilbury_pamphlet",
        Footage("carphone", 1.0, loops=13, width=352, fps=15),
        50.0,
        "A man in a bow tie talking in the back seat of a moving car; exactly one person.",
        (
            _line("sausagerolls", 1.0, stall="card shop", price=4),
            _line("penalty", 17.0, area="playing field", hour=1),
            _line("brownies", 33.0, room="garden room", price=3),
        ),
        (
            Sign("SAUSAGE ROLLS", 0.0, 16.0),
            Sign("SHOOTOUT AT 1", 16.0, 32.0),
            Sign("BROWNIES 3 DOLLARS", 30.0, 50.0, "bottom"),
        ),
        tuple(Count(t, 1, 1, "the man in the back seat") for t in (8.0, 25.0, 41.0)),
        ("warthog", "maracas"),
    ),
    Video(
        "buttery_daybook",
        Footage("Megamind.avi", 4.0, loops=5, width=640, fps=12),
        50.0,
        DINNER_SCENE,
        (
            _line("unicyclists", 1.0, area="grass bank", cause="a tree came down"),
            _line("comedian", 17.0, hour=12, room="sitting room"),
            _line("penalty", 33.0, area="open field", hour=5),
        ),
        (
            Sign("UNICYCLISTS MOVED", 0.0, 16.0),
            Sign("COMEDIAN AT 12", 16.0, 32.0),
            Sign("SHOOTOUT AT 5", 30.0, 50.0, "bottom"),
        ),
        (),
        ("leopard", "gong"),
    ),
)
HELDOUT28_BY_NAME = {v.name: v for v in HELDOUT28_VIDEOS}

#: The hand-written held-out sets by number, their videos: set `heldout{n}` is built from these, its questions
#: (bench/qset/heldout{n}.jsonl, split `test{n}`) were written from bench/qset/heldout{n}_facts.md alone. The
#: set's command (python -m bench.qset heldout{n}) and tests follow this table: a new set is one entry here.
HANDWRITTEN_SETS: dict[int, tuple[Video, ...]] = {
    8: HELDOUT8_VIDEOS, 9: HELDOUT9_VIDEOS, 10: HELDOUT10_VIDEOS, 11: HELDOUT11_VIDEOS, 12: HELDOUT12_VIDEOS,
    13: HELDOUT13_VIDEOS, 14: HELDOUT14_VIDEOS, 15: HELDOUT15_VIDEOS, 16: HELDOUT16_VIDEOS, 17: HELDOUT17_VIDEOS,
    18: HELDOUT18_VIDEOS, 19: HELDOUT19_VIDEOS, 20: HELDOUT20_VIDEOS, 21: HELDOUT21_VIDEOS, 22: HELDOUT22_VIDEOS,
    23: HELDOUT23_VIDEOS, 24: HELDOUT24_VIDEOS, 25: HELDOUT25_VIDEOS, 26: HELDOUT26_VIDEOS, 27: HELDOUT27_VIDEOS,
    28: HELDOUT28_VIDEOS,
}  # fmt: skip
