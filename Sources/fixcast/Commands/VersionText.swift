import FixcastApp
import FixcastAdapters
import FixcastCore

/// `fixcast --version`: the version and the credits the data licences ask for.
enum VersionText {
    static var text: String {
        """
        fixcast \(FixcastInfo.version)
        Place names © OpenStreetMap contributors (ODbL), via Nominatim; offline places from GeoNames (CC BY 4.0).
        Weather data by Open-Meteo.com (CC BY 4.0), MET Norway (CC BY 4.0), or OpenWeatherMap.
        Weather alerts from the US National Weather Service (public domain) and MET Norway (CC BY 4.0).

        """
    }
}
