import FixcastAdapters
import FixcastApp
import FixcastCore

/// `fixcast --version`: the version and the credits the data licences and the providers' terms ask
/// for (GeoNames and the DWD areas: CC BY 4.0 attribution; ECCC's Data Server End-use Licence: the
/// source named; MeteoAlarm: "Meteoalarm / EUMETNET"; Natural Earth: customary). The man page's
/// DATA CREDITS are these lines.
enum VersionText {
    static var text: String {
        """
        fixcast \(FixcastInfo.version)
        Place names © OpenStreetMap contributors (ODbL), via Nominatim; offline places from GeoNames (CC BY 4.0).
        Weather data by Open-Meteo.com (CC BY 4.0), MET Norway (CC BY 4.0), or OpenWeatherMap.
        Weather alerts from the US National Weather Service (public domain), MET Norway (CC BY 4.0), MeteoAlarm (EUMETNET) and its member services, and Environment and Climate Change Canada (Data Server End-use Licence).
        Alert areas: Meteoalarm / EUMETNET (CC0 1.0); German coast and lake areas: Source: Deutscher Wetterdienst (CC BY 4.0); via KDE's foss-public-alert-server.
        Maps made with Natural Earth (public domain).

        """
    }
}
