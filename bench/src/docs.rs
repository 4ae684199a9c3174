//! The three benchmark documents as typed structs, derived the way a serde
//! user writes them (field names as in the JSON, `Option` for nullable
//! fields, `()` for fields that are always `null`, integer-keyed maps).
//! Shared by `benches/docs.rs` and ito's differential tests
//! (`crates/ito/tests/json_serde.rs` includes this file).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// twitter.json: a search API response.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Twitter {
    pub statuses: Vec<Status>,
    pub search_metadata: SearchMetadata,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Status {
    pub metadata: Metadata,
    pub created_at: String,
    pub id: u64,
    pub id_str: String,
    pub text: String,
    pub source: String,
    pub truncated: bool,
    pub in_reply_to_status_id: Option<u64>,
    pub in_reply_to_status_id_str: Option<String>,
    pub in_reply_to_user_id: Option<u64>,
    pub in_reply_to_user_id_str: Option<String>,
    pub in_reply_to_screen_name: Option<String>,
    pub user: User,
    pub geo: (),
    pub coordinates: (),
    pub place: (),
    pub contributors: (),
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retweeted_status: Option<Box<Status>>,
    pub retweet_count: u32,
    pub favorite_count: u32,
    pub entities: StatusEntities,
    pub favorited: bool,
    pub retweeted: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub possibly_sensitive: Option<bool>,
    pub lang: String,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Metadata {
    pub result_type: String,
    pub iso_language_code: String,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct User {
    pub id: u64,
    pub id_str: String,
    pub name: String,
    pub screen_name: String,
    pub location: String,
    pub description: String,
    pub url: Option<String>,
    pub entities: UserEntities,
    pub protected: bool,
    pub followers_count: u32,
    pub friends_count: u32,
    pub listed_count: u32,
    pub created_at: String,
    pub favourites_count: u32,
    pub utc_offset: Option<i32>,
    pub time_zone: Option<String>,
    pub geo_enabled: bool,
    pub verified: bool,
    pub statuses_count: u32,
    pub lang: String,
    pub contributors_enabled: bool,
    pub is_translator: bool,
    pub is_translation_enabled: bool,
    pub profile_background_color: String,
    pub profile_background_image_url: String,
    pub profile_background_image_url_https: String,
    pub profile_background_tile: bool,
    pub profile_image_url: String,
    pub profile_image_url_https: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile_banner_url: Option<String>,
    pub profile_link_color: String,
    pub profile_sidebar_border_color: String,
    pub profile_sidebar_fill_color: String,
    pub profile_text_color: String,
    pub profile_use_background_image: bool,
    pub default_profile: bool,
    pub default_profile_image: bool,
    pub following: bool,
    pub follow_request_sent: bool,
    pub notifications: bool,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct UserEntities {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<UserUrls>,
    pub description: UserUrls,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct UserUrls {
    pub urls: Vec<Url>,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Url {
    pub url: String,
    pub expanded_url: String,
    pub display_url: String,
    pub indices: (u32, u32),
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct StatusEntities {
    pub hashtags: Vec<Hashtag>,
    pub symbols: Vec<String>,
    pub urls: Vec<Url>,
    pub user_mentions: Vec<UserMention>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media: Option<Vec<Media>>,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Hashtag {
    pub text: String,
    pub indices: (u32, u32),
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct UserMention {
    pub screen_name: String,
    pub name: String,
    pub id: u64,
    pub id_str: String,
    pub indices: (u32, u32),
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Media {
    pub id: u64,
    pub id_str: String,
    pub indices: (u32, u32),
    pub media_url: String,
    pub media_url_https: String,
    pub url: String,
    pub display_url: String,
    pub expanded_url: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub sizes: Sizes,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_status_id: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_status_id_str: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Sizes {
    pub medium: Size,
    pub small: Size,
    pub thumb: Size,
    pub large: Size,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Size {
    pub w: u32,
    pub h: u32,
    pub resize: String,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct SearchMetadata {
    pub completed_in: f64,
    pub max_id: u64,
    pub max_id_str: String,
    pub next_results: String,
    pub query: String,
    pub refresh_url: String,
    pub count: u32,
    pub since_id: u64,
    pub since_id_str: String,
}

/// citm_catalog.json: a ticketing catalogue, mostly integer-keyed maps.
#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Citm {
    pub area_names: BTreeMap<u64, String>,
    pub audience_sub_category_names: BTreeMap<u64, String>,
    pub block_names: BTreeMap<u64, String>,
    pub events: BTreeMap<u64, Event>,
    pub performances: Vec<Performance>,
    pub seat_category_names: BTreeMap<u64, String>,
    pub sub_topic_names: BTreeMap<u64, String>,
    pub subject_names: BTreeMap<u64, String>,
    pub topic_names: BTreeMap<u64, String>,
    pub topic_sub_topics: BTreeMap<u64, Vec<u64>>,
    pub venue_names: BTreeMap<String, String>,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    pub description: (),
    pub id: u64,
    pub logo: Option<String>,
    pub name: String,
    pub sub_topic_ids: Vec<u64>,
    pub subject_code: (),
    pub subtitle: (),
    pub topic_ids: Vec<u64>,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Performance {
    pub event_id: u64,
    pub id: u64,
    pub logo: Option<String>,
    pub name: (),
    pub prices: Vec<Price>,
    pub seat_categories: Vec<SeatCategory>,
    pub seat_map_image: (),
    pub start: u64,
    pub venue_code: String,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Price {
    pub amount: u64,
    pub audience_sub_category_id: u64,
    pub seat_category_id: u64,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct SeatCategory {
    pub areas: Vec<Area>,
    pub seat_category_id: u64,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Area {
    pub area_id: u64,
    pub block_ids: Vec<u64>,
}

/// canada.json: GeoJSON, rings of (longitude, latitude) pairs.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Canada {
    #[serde(rename = "type")]
    pub kind: String,
    pub features: Vec<Feature>,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Feature {
    #[serde(rename = "type")]
    pub kind: String,
    pub properties: Properties,
    pub geometry: Geometry,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Properties {
    pub name: String,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct Geometry {
    #[serde(rename = "type")]
    pub kind: String,
    pub coordinates: Vec<Vec<(f64, f64)>>,
}
